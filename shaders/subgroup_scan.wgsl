struct Params { threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<i32>;
@group(0) @binding(2) var<storage, read_write> out: array<i32>;

var<workgroup> totals: array<i32, 64>;

@compute @workgroup_size(64)
fn subgroup_scan(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid3: vec3<u32>,
                 @builtin(subgroup_size) size: u32, @builtin(subgroup_invocation_id) sid: u32) {
    let lid = i32(lid3.x);
    let i = i32(gid.x);
    var x0 = 0;
    if (i < i32(arrayLength(&x))) { x0 = x[i]; }
    var v = subgroupInclusiveAdd(x0);
    let n = i32(size);
    if (i32(sid) == n - 1) { totals[lid / n] = v; }
    workgroupBarrier();
    for (var k = 0; k < lid / n; k++) { v += totals[k]; }
    if (i < i32(arrayLength(&out))) { out[i] = v; }
}
