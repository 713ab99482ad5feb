from spirthon import func, f32

@func
def f(x: f32) -> f32:
    return x
