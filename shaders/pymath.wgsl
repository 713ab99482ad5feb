struct Params { threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> a: array<i32>;
@group(0) @binding(2) var<storage, read> b: array<i32>;
@group(0) @binding(3) var<storage, read> fa: array<f32>;
@group(0) @binding(4) var<storage, read> fb: array<f32>;
@group(0) @binding(5) var<storage, read_write> idiv: array<i32>;
@group(0) @binding(6) var<storage, read_write> imod: array<i32>;
@group(0) @binding(7) var<storage, read_write> fdiv: array<f32>;
@group(0) @binding(8) var<storage, read_write> fmod: array<f32>;
@group(0) @binding(9) var<storage, read_write> tdiv: array<f32>;
@group(0) @binding(10) var<storage, read_write> rounded: array<i32>;
@group(0) @binding(11) var<storage, read_write> floors: array<i32>;

fn floordiv(x: i32, y: i32) -> i32 {
    let q = x / y;
    let r = x % y;
    return select(q, q - 1, r != 0 && (r ^ y) < 0);
}

fn pymod(x: i32, y: i32) -> i32 {
    let r = x % y;
    return select(r, r + y, r != 0 && (r ^ y) < 0);
}

fn fpymod(x: f32, y: f32) -> f32 {
    let r = x % y;
    return select(r, r + y, r != 0.0 && ((r < 0.0) != (y < 0.0)));
}

fn ffloordiv(x: f32, y: f32) -> f32 {
    let m = x % y;
    var div = (x - m) / y;
    if (m != 0.0 && ((y < 0.0) != (m < 0.0))) { div -= 1.0; }
    let fl = floor(div);
    return select(fl, fl + 1.0, div - fl > 0.5);
}

@compute @workgroup_size(64)
fn pymath(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    let x = a[i];
    let y = b[i];
    idiv[i] = floordiv(x, y);
    imod[i] = pymod(x, y);
    fdiv[i] = ffloordiv(fa[i], fb[i]);
    fmod[i] = fpymod(fa[i], fb[i]);
    tdiv[i] = f32(x) / f32(y);
    rounded[i] = i32(round(fa[i]));
    floors[i] = i32(floor(fa[i])) + i32(ceil(fb[i]));
}
