// Twin of pi_splitmix64.py, in naga's WGSL with its 64-bit integers (`u64`, 64-bit atomics).
struct Params { samples: i32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> seeds: array<u64>;
@group(0) @binding(2) var<storage, read_write> states: array<u64>;
@group(0) @binding(3) var<storage, read_write> hits: array<atomic<u64>>;

fn splitmix64(state: ptr<function, u64>) -> u64 {
    let s = *state + 0x9E3779B97F4A7C15lu;
    *state = s;
    var z = s;
    z = (z ^ (z >> 30u)) * 0xBF58476D1CE4E5B9lu;
    z = (z ^ (z >> 27u)) * 0x94D049BB133111EBlu;
    return z ^ (z >> 31u);
}

fn unit(bits: u64) -> f32 {
    return f32(u32(bits >> 40u)) * (1.0 / 16777216.0);
}

@compute @workgroup_size(64)
fn estimate(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= arrayLength(&seeds)) { return; }
    var state = seeds[i] * 0x2545F4914F6CDD1Dlu + u64(i);
    var inside = 0lu;
    for (var k = 0; k < params.samples; k++) {
        let x = unit(splitmix64(&state));
        let y = unit(splitmix64(&state));
        if (x * x + y * y < 1.0) { inside += 1lu; }
    }
    states[i] = state;
    atomicAdd(&hits[0], inside);
}
