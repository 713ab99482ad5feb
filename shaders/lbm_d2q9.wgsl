struct Params { f_shape0: i32, f_shape1: i32, f_shape2: i32, out_shape0: i32, out_shape1: i32, out_shape2: i32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> f: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

const W = array<f32, 9>(4.0 / 9.0, 1.0 / 9.0, 1.0 / 9.0, 1.0 / 9.0, 1.0 / 9.0,
                        1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0);
const CX = array<i32, 9>(0, 1, 0, -1, 0, 1, -1, -1, 1);
const CY = array<i32, 9>(0, 0, 1, 0, -1, 1, 1, -1, -1);
const OMEGA: f32 = 1.0 / 0.6;

@compute @workgroup_size(8, 8)
fn lbm_d2q9(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let x = i32(gid.x);
    let y = i32(gid.y);
    let h = params.f_shape1;
    let w = params.f_shape2;
    var pulled: array<f32, 9>;
    var rho = 0.0;
    var ux = 0.0;
    var uy = 0.0;
    for (var q = 0; q < 9; q += 1) {
        let v = f[(q * h + (y - CY[q] + h) % h) * w + (x - CX[q] + w) % w];
        pulled[q] = v;
        rho += v;
        ux += v * f32(CX[q]);
        uy += v * f32(CY[q]);
    }
    ux /= rho;
    uy /= rho;
    let usq = 1.5 * (ux * ux + uy * uy);
    for (var q = 0; q < 9; q += 1) {
        let cu = 3.0 * (f32(CX[q]) * ux + f32(CY[q]) * uy);
        let feq = W[q] * rho * (1.0 + cu + 0.5 * cu * cu - usq);
        out[(q * h + y) * w + x] = pulled[q] + OMEGA * (feq - pulled[q]);
    }
}
