struct Params { seed: u32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

fn fnv1a(value: u32) -> u32 {
    var h = 2166136261u;
    for (var k = 0u; k < 4u; k += 1u) {
        h ^= (value >> (8u * k)) & 0xFFu;
        h *= 16777619u;
    }
    return h;
}

@compute @workgroup_size(128)
fn hash_ids(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    out[i] = fnv1a(u32(i) ^ params.seed);
}
