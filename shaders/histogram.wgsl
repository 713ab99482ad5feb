struct Params { threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> data: array<u32>;
@group(0) @binding(2) var<storage, read_write> hist: array<atomic<u32>>;

var<workgroup> local_hist: array<atomic<u32>, 16>;

@compute @workgroup_size(64)
fn histogram(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid3: vec3<u32>) {
    let lid = i32(lid3.x);
    let i = i32(gid.x);
    if (lid < 16) { atomicStore(&local_hist[lid], 0u); }
    workgroupBarrier();
    if (i < i32(arrayLength(&data))) {
        atomicAdd(&local_hist[i32(data[i] >> 4u)], 1u);
    }
    workgroupBarrier();
    if (lid < 16) { atomicAdd(&hist[lid], atomicLoad(&local_hist[lid])); }
}
