struct Params { threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<i32>;
@group(0) @binding(2) var<storage, read_write> out: array<i32>;

var<workgroup> a: array<i32, 64>;

@compute @workgroup_size(64)
fn scan(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid3: vec3<u32>) {
    let lid = i32(lid3.x);
    let i = i32(gid.x);
    if (i < i32(arrayLength(&x))) { a[lid] = x[i]; } else { a[lid] = 0; }
    workgroupBarrier();
    var offset = 1;
    while (offset < 64) {
        var t = 0;
        if (lid >= offset) { t = a[lid - offset]; }
        workgroupBarrier();
        a[lid] += t;
        workgroupBarrier();
        offset *= 2;
    }
    if (i < i32(arrayLength(&out))) { out[i] = a[lid]; }
}
