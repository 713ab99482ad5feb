struct Params { r: f32, v: f32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> s: array<f32>;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read> t: array<f32>;
@group(0) @binding(4) var<storage, read_write> call: array<f32>;
@group(0) @binding(5) var<storage, read_write> put: array<f32>;

fn cnd(d: f32) -> f32 {
    let k = 1.0 / (1.0 + 0.2316419 * abs(d));
    let w = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))));
    let c = 1.0 - 0.3989422804014327 * exp(-0.5 * d * d) * w;
    if (d >= 0.0) { return c; }
    return 1.0 - c;
}

fn price(s: f32, x: f32, t: f32, r: f32, v: f32) -> vec2<f32> {
    let sqrt_t = sqrt(t);
    let d1 = (log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrt_t);
    let d2 = d1 - v * sqrt_t;
    let discount = x * exp(-r * t);
    let c = s * cnd(d1) - discount * cnd(d2);
    let p = discount * (1.0 - cnd(d2)) - s * (1.0 - cnd(d1));
    return vec2<f32>(c, p);
}

@compute @workgroup_size(64)
fn black_scholes(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    let cp = price(s[i], x[i], t[i], params.r, params.v);
    call[i] = cp.x;
    put[i] = cp.y;
}
