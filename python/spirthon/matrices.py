"""Matrices under CPython: ``mat22 mat33 mat44`` (square, float32 entries, row-major as NumPy
and Warp hold them), ``dmat22 dmat33 dmat44`` (float64 entries) and ``transpose determinant inverse outer diag identity``; and the
quaternion functions ``quat_identity quat_inverse quat_from_axis_angle quat_rotate
quat_rotate_inv quat_to_matrix`` (a ``quat`` itself is a vector type of ``spirthon.vectors``
whose ``*`` is the Hamilton product).

Each operation computes what the compiled kernel computes, in the same order, each step
rounded to the entries' type: a sum over ``k`` runs left to right, ``(a[i,0]*b[0,j] + a[i,1]*b[1,j]) +
a[i,2]*b[2,j]``; a determinant expands along the first row (a 4×4 one over the 3×3 minors of
its last three rows); ``inverse`` divides each entry of the adjugate by the determinant
(``ZeroDivisionError`` for a singular matrix, as any float division by zero under CPython).

A matrix is mutable (``m[i, j] = x``, ``m[i] = row``) as in kernels, where it is a value:
``w = m`` copies it there, so the compiler rejects assigning into a name that takes part in
such a copy, as for vectors.
"""

import math

from .scalars import F32, F64, f64_mixing, r32
from .types import convert, f32, f64
from .vectors import Vector, quat, TYPES as _VECTORS


class MatrixType:
    """``mat22`` … ``dmat44``: the size and the entries' type (``scalar`` is ``float`` for
    float32, ``f64`` for float64, as a vector type's)."""

    __slots__ = ("name", "n", "scalar", "row")

    def __init__(self, n, scalar=float):
        prefix = "" if scalar is float else "d"
        self.name, self.n, self.scalar = "%smat%d%d" % (prefix, n, n), n, scalar
        self.row = _VECTORS["%svec%d" % (prefix, n)]

    def entry(self, x):
        """``x`` as an entry of this type (float32 and float64 do not mix)."""
        if self.scalar is float:
            if type(x) is F64:
                raise f64_mixing()
            return x if type(x) is F32 else convert(f32, x)
        if type(x) is F32:
            raise f64_mixing()
        return x if type(x) is F64 else convert(f64, x)

    @property
    def size(self):
        """The entry count, as a vector type's ``size`` is its component count."""
        return self.n * self.n

    def __repr__(self):
        return self.name

    def with_article(self):
        return "a " + self.name

    def __call__(self, *args):
        n = self.n
        if len(args) == 1 and isinstance(args[0], Matrix) and args[0].type.n == n:
            # A copy, or each entry converted between float32 and float64.
            kind = f32 if self.scalar is float else f64
            return Matrix(self, [convert(kind, x) for x in args[0]._e])
        row = self.row
        if len(args) == n and all(isinstance(a, Vector) for a in args):
            entries = []
            for a in args:
                if a.type is not row:
                    raise TypeError("a row of a %s is a %s, not a %s" % (self.name, row.name, a.type.name))
                entries.extend(a._c)
            return Matrix(self, entries)
        if len(args) == n * n:
            return Matrix(self, [row.component(a) for a in args])
        raise TypeError("%s takes %d rows or %d numbers, but these are %d arguments" % (self.name, n, n * n, len(args)))


mat22, mat33, mat44 = MatrixType(2), MatrixType(3), MatrixType(4)
dmat22, dmat33, dmat44 = MatrixType(2, f64), MatrixType(3, f64), MatrixType(4, f64)
TYPES = {t.name: t for t in (mat22, mat33, mat44, dmat22, dmat33, dmat44)}


def _index(k, n, what):
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError("a matrix is indexed with ints, not %s" % type(k).__name__)
    if not -n <= k < n:
        raise IndexError("index %d out of range for %s" % (k, what))
    return k % n


def _dot(x, y):
    s = x[0] * y[0]
    for k in range(1, len(x)):
        s = s + x[k] * y[k]
    return s


def _f32(x):
    return x if isinstance(x, F32) else convert(f32, x)


class Matrix:
    """A matrix value: its type and its entries, row-major (``F32``s or ``F64``s)."""

    __slots__ = ("type", "_e")

    def __init__(self, mtype, entries):
        self.type = mtype
        self._e = [mtype.entry(x) for x in entries]

    def _row(self, i):
        n = self.type.n
        return self._e[i * n:(i + 1) * n]

    def _at(self, k):
        """``(row type, row, column or None)`` of the index ``m[i, j]`` or ``m[i]``."""
        n = self.type.n
        row = self.type.row
        if isinstance(k, tuple):
            if len(k) != 2:
                raise IndexError("a %s is indexed m[i, j] or m[i]" % self.type.name)
            return row, _index(k[0], n, row.with_article()), _index(k[1], n, row.with_article())
        return row, _index(k, n, row.with_article()), None

    def __getitem__(self, k):
        row, i, j = self._at(k)
        if j is not None:
            return self._e[i * self.type.n + j]
        return Vector(row, list(self._row(i)))

    def __setitem__(self, k, value):
        row, i, j = self._at(k)
        n = self.type.n
        if j is not None:
            self._e[i * n + j] = row.component(value)
            return
        if not isinstance(value, Vector) or value.type is not row:
            raise TypeError("a row of a %s is a %s" % (self.type.name, row.name))
        self._e[i * n:(i + 1) * n] = list(value._c)

    def __matmul__(self, other):
        n = self.type.n
        if isinstance(other, Matrix) and other.type is self.type:
            cols = [[other._e[k * n + j] for k in range(n)] for j in range(n)]
            return Matrix(self.type, [_dot(self._row(i), cols[j]) for i in range(n) for j in range(n)])
        if isinstance(other, Vector) and other.type is self.type.row:
            return Vector(other.type, [_dot(self._row(i), other._c) for i in range(n)])
        return NotImplemented

    def __rmatmul__(self, other):
        n = self.type.n
        if isinstance(other, Vector) and other.type is self.type.row:
            cols = [[self._e[k * n + j] for k in range(n)] for j in range(n)]
            return Vector(other.type, [_dot(other._c, cols[j]) for j in range(n)])
        return NotImplemented

    def _number(self, x, op):
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            raise TypeError("%s cannot combine a %s and %r" % (op, self.type.name, x))
        return self.type.entry(x)

    def __mul__(self, k):
        if isinstance(k, (Matrix, Vector)):
            raise TypeError("the matrix product is @; * multiplies a matrix by a number")
        k = self._number(k, "*")
        return Matrix(self.type, [e * k for e in self._e])

    def __rmul__(self, k):
        if isinstance(k, Vector):
            raise TypeError("the matrix product is @; * multiplies a matrix by a number")
        k = self._number(k, "*")
        return Matrix(self.type, [k * e for e in self._e])

    def __truediv__(self, k):
        k = self._number(k, "/")
        return Matrix(self.type, [e / k for e in self._e])

    def _same(self, other, op):
        if not isinstance(other, Matrix) or other.type is not self.type:
            raise TypeError("%s needs two %ss" % (op, self.type.name))
        return other._e

    def __add__(self, other):
        return Matrix(self.type, [a + b for a, b in zip(self._e, self._same(other, "+"))])

    def __sub__(self, other):
        return Matrix(self.type, [a - b for a, b in zip(self._e, self._same(other, "-"))])

    def __neg__(self):
        return Matrix(self.type, [-e for e in self._e])

    def __pos__(self):
        return Matrix(self.type, list(self._e))

    def __bool__(self):
        raise TypeError("a %s has no truth value in kernels" % self.type.name)

    __hash__ = None

    def __eq__(self, other):
        raise TypeError("matrices are not compared with == in kernels: compare entries")

    __ne__ = __eq__

    def tolist(self):
        n = self.type.n
        return [[float(x) for x in self._row(i)] for i in range(n)]

    def __repr__(self):
        return "%s(%s)" % (self.type.name, ", ".join(repr(x) for x in self._e))

    def __format__(self, spec):
        """``format(m, spec)``: the spec applied to each entry, row by row, as for a vector."""
        if not spec:
            return repr(self)
        return "%s(%s)" % (self.type.name, ", ".join(format(x, spec) for x in self._e))


def _matrix(m, fn):
    if not isinstance(m, Matrix):
        raise TypeError("%s takes a matrix (mat22, mat33, mat44, dmat22, dmat33, dmat44), not %r" % (fn, m))
    return m


def transpose(m):
    n = _matrix(m, "transpose").type.n
    return Matrix(m.type, [m._e[(k % n) * n + k // n] for k in range(n * n)])


def _det(e, n):
    if n == 2:
        return e[0] * e[3] - e[1] * e[2]
    s = None
    for j in range(n):
        term = e[j] * _minor_det(e, n, 0, j)
        if s is None:
            s = term
        elif j % 2 == 0:
            s = s + term
        else:
            s = s - term
    return s


def _minor_det(e, n, r, c):
    m = [e[i * n + j] for i in range(n) if i != r for j in range(n) if j != c]
    if n - 1 == 1:
        return m[0]
    return _det(m, n - 1)


def determinant(m):
    _matrix(m, "determinant")
    return _det(m._e, m.type.n)


def inverse(m):
    _matrix(m, "inverse")
    n, e = m.type.n, m._e
    d = _det(e, n)
    out = []
    for i in range(n):
        for j in range(n):
            c = _minor_det(e, n, j, i)
            if (i + j) % 2:
                c = -c
            out.append(c / d)
    return Matrix(m.type, out)


def _float_vector(v, fn):
    if not isinstance(v, Vector) or not v.type.is_float or v.type is quat:
        raise TypeError("%s takes a float vector (vec2 … vec4, dvec2 … dvec4), not %r" % (fn, v))
    n = v.type.size
    return TYPES["%smat%d%d" % ("" if v.type.scalar is float else "d", n, n)]


def outer(u, v):
    t = _float_vector(u, "outer")
    _float_vector(v, "outer")
    if u.type is not v.type:
        raise TypeError("outer takes two vectors of one size")
    n = u.type.size
    return Matrix(t, [u._c[i] * v._c[j] for i in range(n) for j in range(n)])


def diag(v):
    t = _float_vector(v, "diag")
    n = v.type.size
    return Matrix(t, [v._c[k // (n + 1)] if k % (n + 1) == 0 else 0 for k in range(n * n)])


def identity(n):
    if n not in (2, 3, 4):
        raise ValueError("identity(n) takes 2, 3 or 4")
    return Matrix(TYPES["mat%d%d" % (n, n)], [1.0 if k % (n + 1) == 0 else 0.0 for k in range(n * n)])


def _quat(q, fn):
    if not isinstance(q, Vector) or q.type is not quat:
        raise TypeError("%s takes a quat, not %r" % (fn, q))
    return q._c


def _vec3(v, fn):
    if not isinstance(v, Vector) or v.type is not _VECTORS["vec3"]:
        raise TypeError("%s takes a vec3, not %r" % (fn, v))
    return v._c


def quat_identity():
    return quat(0.0, 0.0, 0.0, 1.0)


def quat_inverse(q):
    x, y, z, w = _quat(q, "quat_inverse")
    return Vector(quat, [-x, -y, -z, w])


def quat_from_axis_angle(axis, angle):
    """The rotation by ``angle`` about ``axis`` (not normalized, as in Warp)."""
    a = _vec3(axis, "quat_from_axis_angle")
    h = _f32(angle) * _f32(0.5)
    # As kernel code's `math.cos` and `math.sin`: on the float32 value, rounded to float32
    # (the GPU's own are within the device's precision of these).
    w = F32(r32(math.cos(float(h))))
    s = F32(r32(math.sin(float(h))))
    return Vector(quat, [a[0] * s, a[1] * s, a[2] * s, w])


def _rotate(q, v, inverse):
    """Warp's ``v*(2w² - 1) ± cross(u, v)*w*2 + u*dot(u, v)*2`` with ``u = q.xyz``, in the
    compiler's order."""
    x, y, z, w = q
    two, one = _f32(2.0), _f32(1.0)
    c = w * w * two - one
    u = (x, y, z)
    cross = [u[i] * v[j] - u[j] * v[i] for i, j in ((1, 2), (2, 0), (0, 1))]
    dot = u[0] * v[0] + u[1] * v[1] + u[2] * v[2]
    out = []
    for k in range(3):
        a = v[k] * c
        b = cross[k] * w * two
        s = a - b if inverse else a + b
        out.append(s + u[k] * dot * two)
    return out


def quat_rotate(q, v):
    return Vector(_VECTORS["vec3"], _rotate(_quat(q, "quat_rotate"), _vec3(v, "quat_rotate"), False))


def quat_rotate_inv(q, v):
    return Vector(_VECTORS["vec3"], _rotate(_quat(q, "quat_rotate_inv"), _vec3(v, "quat_rotate_inv"), True))


def quat_to_matrix(q):
    """The rotation matrix of ``q``: its columns are the rotated basis vectors."""
    c = _quat(q, "quat_to_matrix")
    z, o = _f32(0.0), _f32(1.0)
    cols = [_rotate(c, e, False) for e in ((o, z, z), (z, o, z), (z, z, o))]
    return Matrix(mat33, [cols[k % 3][k // 3] for k in range(9)])


__all__ = ["MatrixType", "Matrix", "mat22", "mat33", "mat44", "dmat22", "dmat33", "dmat44", "transpose", "determinant",
           "inverse", "outer", "diag", "identity", "quat_identity", "quat_inverse",
           "quat_from_axis_angle", "quat_rotate", "quat_rotate_inv", "quat_to_matrix"]
