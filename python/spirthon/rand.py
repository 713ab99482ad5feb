"""Random numbers under CPython: the stream a compiled kernel draws, word for word.

``Rand`` is a struct of one ``u32``, ``state``; each draw replaces it by Warp's PCG hash of it
and computes from the new words, in the order and the float32 operations of
``crates/spirthon-frontend/src/lower/random.rs`` (docs/language.md, "Random numbers"). A draw
changes the ``Rand`` it is given in place (a local's, a field's, an array element's), as the
compiled kernel stores the state back where it was read.
"""

import math

from .scalars import F32, I32, U32, r32, wrap_i32
from .structs import struct
from .types import u32

_MASK = 0xFFFFFFFF
# 2π rounded to float32, as the compiler's constant.
_TAU = r32(2.0 * math.pi)
# What Warp's randn adds to its first draw before the logarithm (5.96e-8 as a float32).
_RANDN_EPSILON = r32(5.96e-8)
# Warp's 1.f / 3.f, the exponent of the ball's radius.
_THIRD = r32(1.0 / 3.0)


@struct
class Rand:
    """The state of a random stream (``rand_init``); stored in an ``Array[Rand]`` as one
    ``uint32``."""

    state: u32


def _pcg(s):
    b = (s * 747796405 + 2891336453) & _MASK
    c = (((b >> ((b >> 28) + 4)) ^ b) * 277803737) & _MASK
    return (c >> 22) ^ c


def _word(x, what):
    if isinstance(x, bool) or not isinstance(x, int):
        raise TypeError("%s of a random stream is an i32 or a u32, not %r" % (what, x))
    if not -(1 << 31) <= int(x) < (1 << 32):
        raise OverflowError("%s of a random stream does not fit 32 bits: %d" % (what, x))
    return int(x) & _MASK


def rand_init(seed, offset=None):
    """A new stream: ``Rand(pcg(seed))``, or ``Rand(pcg(seed + pcg(offset)))`` (one stream
    per ``offset``, as ``rand_init(seed, i)`` gives each invocation its own)."""
    s = _word(seed, "the seed")
    if offset is not None:
        s = (s + _pcg(_word(offset, "the offset"))) & _MASK
    return Rand(U32(_pcg(s)))


def _next(rng):
    if type(rng) is not Rand:
        raise TypeError("a draw takes the Rand it draws from, not %r" % (rng,))
    w = _pcg(int(rng.state))
    rng.state = U32(w)
    return w


def _unit(w):
    return r32(float(w >> 8) * (1.0 / 16777216.0))


def _f(x):
    return r32(float(x))


def randu(rng):
    """The next word, a ``u32``."""
    return U32(_next(rng))


def randi(rng, lo=None, hi=None):
    """The next word as an ``i32``; with ``lo, hi``: ``lo + (word % (hi - lo))`` (the
    difference as a ``u32``, wrapping; ``lo`` when it is zero)."""
    w = _next(rng)
    if lo is None:
        return I32(wrap_i32(w))
    lo, hi = int(lo), int(hi)
    d = max((hi - lo) & _MASK, 1)
    return I32(wrap_i32(lo + (w % d)))


def randf(rng, lo=None, hi=None):
    """A float32 in ``[0, 1)`` (the word's top 24 bits times 2⁻²⁴); with ``lo, hi``:
    ``(hi - lo) * u + lo``."""
    u = _unit(_next(rng))
    if lo is None:
        return F32(u)
    lo, hi = _f(lo), _f(hi)
    return F32(r32(r32(r32(hi - lo) * u) + lo))


def randn(rng):
    """A normal float32 (Warp's Box–Muller): ``sqrt(-2 log(u1 + 5.96e-8)) * cos(2π u2)``."""
    u1 = _unit(_next(rng))
    u2 = _unit(_next(rng))
    r = r32(math.sqrt(r32(-2.0 * r32(math.log(r32(u1 + _RANDN_EPSILON))))))
    return F32(r32(r * r32(math.cos(r32(_TAU * u2)))))


def sample_unit_disk(rng):
    """A point uniform in the unit disk: ``sqrt(u1) * (cos 2π u2, sin 2π u2)``."""
    from .vectors import vec2

    u1 = _unit(_next(rng))
    u2 = _unit(_next(rng))
    r = r32(math.sqrt(u1))
    t = r32(_TAU * u2)
    return vec2(F32(r32(r * r32(math.cos(t)))), F32(r32(r * r32(math.sin(t)))))


def _sphere(rng, ball):
    u1 = _unit(_next(rng))
    u2 = _unit(_next(rng))
    phi = r32(math.acos(r32(1.0 - r32(2.0 * u1))))
    t = r32(_TAU * u2)
    p = [r32(math.cos(t)), r32(math.sin(t)), r32(math.cos(phi))]
    if ball:
        r = r32(math.pow(_unit(_next(rng)), _THIRD))
        p = [r32(r * c) for c in p]
    s = r32(math.sin(phi))
    return [r32(p[0] * s), r32(p[1] * s), p[2]]


def sample_unit_sphere_surface(rng):
    """A point uniform on the unit sphere (Warp's): ``φ = acos(1 - 2 u1)``, ``θ = 2π u2``,
    ``(cos θ sin φ, sin θ sin φ, cos φ)``."""
    from .vectors import vec3

    return vec3(*[F32(c) for c in _sphere(rng, False)])


def sample_unit_sphere(rng):
    """A point uniform in the unit ball (Warp's): the sphere's formula with each component
    first scaled by ``r = pow(u3, 1/3)`` (three words)."""
    from .vectors import vec3

    return vec3(*[F32(c) for c in _sphere(rng, True)])
