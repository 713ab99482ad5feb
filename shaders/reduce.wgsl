struct Params { threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> partial: array<f32>;

var<workgroup> tile: array<f32, 256>;

@compute @workgroup_size(256)
fn reduce(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid3: vec3<u32>,
          @builtin(workgroup_id) wid: vec3<u32>) {
    let lid = i32(lid3.x);
    let i = i32(gid.x);
    if (i < i32(arrayLength(&x))) { tile[lid] = x[i]; } else { tile[lid] = 0.0; }
    workgroupBarrier();
    var s = 128;
    while (s > 0) {
        if (lid < s) { tile[lid] += tile[lid + s]; }
        workgroupBarrier();
        s = s / 2;
    }
    if (lid == 0) { partial[i32(wid.x)] = tile[0]; }
}
