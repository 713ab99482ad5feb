struct Params { threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> values: array<i32>;
@group(0) @binding(2) var<storage, read_write> flags: array<i32>;

fn is_prime(n: i32) -> bool {
    if (n < 2) { return false; }
    if (n % 2 == 0) { return n == 2; }
    var d = 3;
    while (d * d <= n) {
        if (n % d == 0) { return false; }
        d += 2;
    }
    return true;
}

@compute @workgroup_size(64)
fn primes(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    flags[i] = select(0, 1, is_prime(values[i]));
}
