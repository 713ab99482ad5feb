"""An f32 meeting an f64: the help names where the f32 was made (a parameter, an array
parameter, a local's first assignment) and how to make it f64 there, since f64() of the f32
side keeps only an f32's precision (a Black-Scholes port lost 7 digits that way)."""
from spirthon import kernel, Array, f32, f64, global_id


@kernel
def price(r: f32, s: Array[f64], out: Array[f64]):
    i = global_id().x
    out[i] = s[i] * r


@kernel
def scaled(s: Array[f64], out: Array[f64]):
    i = global_id().x
    k = 0.5
    out[i] = s[i] * k


@kernel
def summed(a: Array[f32], s: Array[f64], out: Array[f64]):
    i = global_id().x
    out[i] = s[i] + a[i]
