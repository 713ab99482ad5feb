"""The adjoint rules of the differentiable operations (``spirthon.autodiff``): the `math`
functions, the subgroup sums, the matrix and quaternion helpers, as tables of Python text
over the operands, the result ``r`` and its adjoint ``G``. A rule is evaluated where the
replay has defined its names; one whose operand is a scalar and whose addition is a vector
(or a matrix) is summed over the components by the writer.

The texts hold three placeholders, replaced when the adjoint is written out: ``S`` and
``M`` for the library's names (``import spirthon as ...`` and ``import math as ...``,
appended under names of the adjoint's own prefix, so a kernel file's own names never
clash) and ``G`` for the adjoint of the value a rule belongs to. No kernel's text holds
them. The derivatives are the textbook ones (Abramowitz and Stegun, ch. 4 and 7); where a
function has a kink or the edge of its domain, the one-sided value a Python programmer would
take (``sqrt`` at 0 gives 0, not inf; ``min`` of equal values gives the first its adjoint,
as Python's ``min`` returns it).
"""

import re

SCALARS = ("f32", "f64")
DVECS = ("dvec2", "dvec3", "dvec4")
FLOAT_VECS = ("vec2", "vec3", "vec4", "quat") + DVECS
DMATS = ("dmat22", "dmat33", "dmat44")
MATS = ("mat22", "mat33", "mat44") + DMATS
DIFF = SCALARS + FLOAT_VECS + MATS
LOCAL_ARRAY_BYTES = 16384

# The placeholders (see above).
S, M, G = "\x01", "\x02", "\x03"



def _scalar(t):
    """The float of a float type's components: ``f64`` for ``f64``, its vectors and
    matrices, else ``f32``."""
    return "f64" if t == "f64" or t in DVECS or t in DMATS else "f32"


def _vec(n, scalar):
    """The vector of ``n`` components of float ``scalar``."""
    return ("dvec%d" if scalar == "f64" else "vec%d") % n


def _mat(n, scalar):
    """The ``n`` by ``n`` matrix of float ``scalar``."""
    return ("dmat%d%d" if scalar == "f64" else "mat%d%d") % (n, n)


def _size(t):
    """A vector's components, a matrix's rows (and columns), a scalar's 1."""
    if t == "quat":
        return 4
    return int(t[-1]) if t in FLOAT_VECS or t in MATS else 1


def _row(t):
    """A matrix's row: a vector of its size and float."""
    return _vec(_size(t), _scalar(t))


def _zero(t):
    if t in MATS:
        return "%s%s(%s)" % (S, t, ", ".join(["0.0"] * _size(t) ** 2))
    if t == "quat":
        return "%squat(0.0, 0.0, 0.0, 0.0)" % S  # (one number alone is no quat)
    return "%s%s(0.0)" % (S, t)


def _ones(t):
    return "%squat(1.0, 1.0, 1.0, 1.0)" % S if t == "quat" else "%s%s(1.0)" % (S, t)


def _entries(t, entry):
    """A matrix of type ``t`` whose entry (r, c) is ``entry(r, c)``."""
    n = _size(t)
    return "%s%s(%s)" % (S, t, ", ".join(entry(r, c) for r in range(n) for c in range(n)))


def _frobenius(a, b, t):
    """The sum of the entries of ``a * b`` (entry by entry) of two matrices of type ``t``."""
    return " + ".join("%sdot(%s[%d], %s[%d])" % (S, a, r, b, r) for r in range(_size(t)))


# The adjoint rules of the `math` functions: the addition to the adjoint of argument ``a``
# (and ``b``), over the result ``r`` and its adjoint ``G``; ``Z`` is a zero and ``F`` the
# conversion to the result's float type (``f32`` or ``f64``: the language does not mix
# them). The derivative where the function is differentiable; at a kink or an edge of the
# domain, the one-sided value a Python programmer would take (``sqrt`` at 0 gives 0, not
# inf).
MATH1 = {
    "sqrt": "{G} * 0.5 / {r} if {r} > 0.0 else {Z}",
    "sin": "{G} * {M}cos({a})",
    "cos": "-{G} * {M}sin({a})",
    "tan": "{G} / ({M}cos({a}) * {M}cos({a}))",
    "asin": "{G} / {M}sqrt(1.0 - {a} * {a})",
    "acos": "-{G} / {M}sqrt(1.0 - {a} * {a})",
    "atan": "{G} / (1.0 + {a} * {a})",
    "sinh": "{G} * {M}cosh({a})",
    "cosh": "{G} * {M}sinh({a})",
    "tanh": "{G} * (1.0 - {r} * {r})",
    "exp": "{G} * {r}",
    "exp2": "{G} * {r} * 0.6931471805599453",
    "expm1": "{G} * ({r} + 1.0)",
    "log": "{G} / {a}",
    "log2": "{G} / ({a} * 0.6931471805599453)",
    "log10": "{G} / ({a} * 2.302585092994046)",
    "log1p": "{G} / (1.0 + {a})",
    "cbrt": "{G} / (3.0 * {r} * {r}) if {r} != 0.0 else {Z}",
    "erf": "{G} * 1.1283791670955126 * {M}exp(-{a} * {a})",
    "erfc": "-{G} * 1.1283791670955126 * {M}exp(-{a} * {a})",
    "fabs": "{G} if {a} >= 0.0 else -{G}",
}
MATH2 = {
    # (at the origin, where it has no derivative, 0, as hypot's and length's)
    "atan2": ("{G} * {b} / ({a} * {a} + {b} * {b}) if {a} != 0.0 or {b} != 0.0 else {Z}",
              "-{G} * {a} / ({a} * {a} + {b} * {b}) if {a} != 0.0 or {b} != 0.0 else {Z}"),
    "pow": ("{G} * {b} * {M}pow({a}, {b} - 1.0) if {a} != 0.0 or {b} >= 1.0 else {Z}",
            "{G} * {r} * {M}log({a}) if {a} > 0.0 else {Z}"),
    "hypot": ("{G} * {a} / {r} if {r} > 0.0 else {Z}", "{G} * {b} / {r} if {r} > 0.0 else {Z}"),
    "copysign": ("{G} if {M}copysign(1.0, {a}) == {M}copysign(1.0, {b}) else -{G}", None),
    "fmod": ("{G}", "-{G} * {F}({M}trunc({a} / {b}))"),
}
# The subgroup operations whose adjoints are subgroup operations: (what every lane computes
# first over the result's adjoints, then the addition to the lane's argument's adjoint),
# over {S}, {G}, the argument {a}, the result {r}, the lane or offset {lane}, a zero of the
# argument's type {zero}, and {s[k]}, the k-th value computed first. A reduction to a
# minimum or maximum passes the sum to the lowest lane whose argument it is (per component:
# ``_minmax_lanes``), as `min` and `max` pass it to the first argument on a tie.
SUBGROUP_RULES = {
    "subgroup_add": (["{S}subgroup_add({G})"], "{s[0]}"),
    # inclusive: y_m = sum of x_l for l <= m, so x_l gets the sum of G_m for m >= l.
    "subgroup_inclusive_add": (["{S}subgroup_add({G})", "{S}subgroup_exclusive_add({G})"], "{s[0]} - {s[1]}"),
    "subgroup_exclusive_add": (["{S}subgroup_add({G})", "{S}subgroup_inclusive_add({G})"], "{s[0]} - {s[1]}"),
    "subgroup_broadcast_first": (["{S}subgroup_add({G})"], "{s[0]} if {S}subgroup_elect() else {zero}"),
    "subgroup_broadcast": (["{S}subgroup_add({G})"], "{s[0]} if {S}subgroup_invocation_id() == {lane} else {zero}"),
    # Lane l reads lane l ^ n (or itself where that lane is past the subgroup or inactive,
    # and then no lane reads it): a permutation that is its own inverse.
    "subgroup_shuffle_xor": (["{S}subgroup_shuffle_xor({G}, {lane})"], "{s[0]}"),
    # Lane l reads lane l + n (down) or l - n (up), or itself where that lane is past the
    # subgroup or inactive: lane k gets the adjoint of the lane that read it, found by the
    # opposite shuffle where that lane read k (its id moved), and its own where it read
    # itself (its id did not move).
    "subgroup_shuffle_down": (["{S}subgroup_shuffle_up({G}, {lane})", "{S}subgroup_shuffle_up({S}subgroup_invocation_id(), {lane})",
                               "{S}subgroup_shuffle_down({S}subgroup_invocation_id(), {lane})"],
                              "({s[0]} if {s[1]} != {S}subgroup_invocation_id() else {zero}) + ({G} if {s[2]} == {S}subgroup_invocation_id() else {zero})"),
    "subgroup_shuffle_up": (["{S}subgroup_shuffle_down({G}, {lane})", "{S}subgroup_shuffle_down({S}subgroup_invocation_id(), {lane})",
                             "{S}subgroup_shuffle_up({S}subgroup_invocation_id(), {lane})"],
                            "({s[0]} if {s[1]} != {S}subgroup_invocation_id() else {zero}) + ({G} if {s[2]} == {S}subgroup_invocation_id() else {zero})"),
    "subgroup_min": None,
    "subgroup_max": None,
}


def _minmax_lanes(t, a, r):
    """``SUBGROUP_RULES``' entry of a subgroup minimum or maximum ``r`` of ``a`` (of type
    ``t``): the lanes' sum of the adjoints, and how many lanes before each hold the result,
    taken per component."""
    if t in SCALARS:
        return (["{S}subgroup_add({G})", "{S}subgroup_exclusive_add(1 if %s == %s else 0)" % (a, r)],
                "{s[0]} if %s == %s and {s[1]} == 0 else 0.0" % (a, r))
    comps = "xyzw"[:_size(t)]
    hit = ", ".join("1 if %s.%s == %s.%s else 0" % (a, c, r, c) for c in comps)
    pick = ", ".join("{s[0]}.%s if %s.%s == %s.%s and {s[1]}.%s == 0 else 0.0" % (c, a, c, r, c, c) for c in comps)
    return (["{S}subgroup_add({G})", "{S}subgroup_exclusive_add({S}ivec%d(%s))" % (len(comps), hit)],
            "{S}%s(%s)" % (t, pick))


# Piecewise constant (no adjoint flows), int- or bool-valued.
MATH_INT = ("floor", "ceil", "trunc")
MATH_BOOL = ("isnan", "isinf", "isfinite")


def _rule(template, t, **names):
    """``template`` filled in for operands ``names`` of an operation whose result has type
    ``t``."""
    f = "f64" if t == "f64" else "f32"
    return template.format(G=G, S=S, M=M, Z=_zero(f), F=S + f, **{k: _paren(v) for k, v in names.items()})


_ATOM = re.compile(r"[\w.\x01\x02]+(\(\))?")


def _paren(t):
    """``t`` as an operand anywhere: itself when it is a name, a literal, an attribute or a
    call without arguments, else in parentheses."""
    if t.isidentifier() or _ATOM.fullmatch(t):
        return t
    return "(%s)" % t


def _rotate_x_adjoint(q, g, sign):
    """The adjoint of ``x`` in ``x*(2w²-1) ± cross(u, x)*w*2 + u*dot(u, x)*2`` (``u =
    q.xyz``, ``w = q.w``: ``quat_rotate``, or ``quat_rotate_inv`` with ``-``), given the
    result's adjoint ``g``."""
    return "%s * (2.0 * %s.w * %s.w - 1.0) %s %scross(%s, %s.xyz) * (2.0 * %s.w) + %s.xyz * (2.0 * %sdot(%s, %s.xyz))" % (
        g, q, q, sign, S, g, q, q, q, S, g, q)


def _rotate_q_adjoint(q, x, g, sign):
    """The adjoint of ``q`` in the same, as a quat: ``u`` gets ``± 2w cross(x, g) +
    2(dot(u, x) g + dot(g, u) x)``, ``w`` gets ``4w dot(g, x) ± 2 dot(g, cross(u, x))``."""
    u = "%s.xyz" % q
    du = "%scross(%s, %s) * (2.0 * %s.w) * %s1.0 + (%s * %sdot(%s, %s) + %s * %sdot(%s, %s)) * 2.0" % (
        S, x, g, q, "" if sign == "+" else "-", g, S, u, x, x, S, g, u)
    dw = "4.0 * %s.w * %sdot(%s, %s) %s 2.0 * %sdot(%s, %scross(%s, %s))" % (q, S, g, x, sign, S, g, S, u, x)
    return "%squat(%s, %s)" % (S, du, dw)


def _entry_texts(t, g):
    """The entries of ``g``, a value of type ``t`` (a matrix row by row, a quat's x y z w),
    as its element is laid out in a flat ``f32`` adjoint array."""
    if t in MATS:
        return ["%s[%d, %d]" % (g, r, c) for r in range(_size(t)) for c in range(_size(t))]
    if t in SCALARS:
        return [g]
    return ["%s.%s" % (g, c) for c in "xyzw"[:_size(t)]]


def _flat(index, per, k, array, dims):
    """The position of entry ``k`` of element ``index`` (its parts, atoms, joined by ", ") of
    ``array`` (``dims`` axes, row-major) in a flat ``f32`` adjoint array of ``per`` entries
    per element."""
    parts = index.split(", ")
    element = parts[0]
    for axis in range(1, dims):
        element = "(%s * %s.shape[%d] + %s)" % (element, array, axis, parts[axis])
    return "%s * %d + %d" % (_paren(element), per, k)


def _index(index):
    return "(%s)" % index if "," in index else index
