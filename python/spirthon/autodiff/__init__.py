"""Reverse-mode differentiation of kernels: the adjoint of a kernel as a kernel of the language.

``adjoint(kernel)`` writes the adjoint of a ``@kernel`` as Python source in the kernel
language, appended to the kernel's file text: one more ``@kernel`` that takes the kernel's
parameters and then, for each float array parameter ``a``, its adjoint array. So the same
adjoint runs on every device: the GPU compiles it as any kernel (naga and spirv-val check
it), and the reference executor runs its lines under CPython, where ``print`` and ``pdb``
work (``Kernel.adjoint_source`` shows it).

Its stages are modules: ``linear`` puts the kernel in a linear form (and refuses what it
cannot differentiate), ``writer`` writes the adjoint's lines from it, and ``rules`` holds
the adjoint rule of each differentiable built-in.

The adjoint is a forward replay followed by a reverse sweep (Griewank and Walther,
*Evaluating Derivatives*, 2nd ed., 2008, ch. 3-4; the structured form with recomputation is
that of Tapenade and of Warp's code generator):

* The kernel body is first put in a linear form over versioned names, one name per
  assignment (so every value the sweep needs stays available): each float operation is a
  ``Let`` with its adjoint rule, array reads ``Load``, writes and atomics ``Store``,
  branches ``If`` with their merged names (a phi as a copy at the end of each branch),
  loops ``For`` with their carried names. Int and bool values carry no adjoint: their
  expressions stay whole in the replay.
* The replay runs the linear form without its writes to parameter arrays (it writes
  shared and local arrays again, whose contents it reads); the sweep walks it backwards,
  each ``Let``'s rule adding to its operands' adjoints, and a ``barrier()`` is a barrier in
  both. A branch is replayed again inside its reverse (so its names are defined there), a
  loop iterates backwards, restoring its carried values at each iteration's start from a
  per-invocation array (``local_array``) sized by the trip count, which must be a
  compile-time constant; a loop whose trip count is not constant may carry values only as
  accumulators (``s += e`` where ``e`` reads no carried value), whose adjoint needs no
  stored value. Funcs are inlined, unless they give their own adjoint
  (``@func(grad=...)``), which the sweep calls.
* Array reads add to the array's adjoint with ``atomic_add`` (several invocations may read
  one element; one atomic per entry for matrices and quats, whose adjoint arrays are flat
  ``f32`` arrays); a plain store's reverse reads the element's adjoint, clears it (the value
  it overwrote did not reach the result) and passes it to the stored value; ``+=``,
  ``-=``, ``atomic_add`` and ``atomic_sub`` pass it on unchanged.

The types are the language's, followed here as far as the adjoint needs them: ``f32``,
``f64``, ``vec2``-``vec4``, ``dvec2``-``dvec4``, ``quat``, ``mat22``-``mat44`` and
``dmat22``-``dmat44`` values (and structs' fields of the ``f32`` ones) carry adjoints (``f64`` ones in ``f64``: the language does not mix the two floats), ints and bools do not (their expressions stay whole in the replay), and a
value this module cannot type where it matters is refused rather than guessed.

What would make the adjoint wrong is refused here with the file and line: an array that
the kernel both reads and writes (the replay would read the written values), a shared or
local array written after it was read, the result of an atomic or of a func that writes
arrays used as a value, loops that cannot be reversed (``for ... else``, loops over other
than a ``range`` or a module's constant tuple), and everything not differentiable yet
(``f16`` values, random numbers).

Structs are differentiated field by field (scalar replacement of aggregates): a struct
local is a marker in the scope's names and each of its fields (nested structs' too) a local
of its own, ``p.vel``, so assigning a field, branches' merges, loops' carried values and
checkpoints, and funcs' parameters and results treat fields as any local. Arrays of structs
with float fields have adjoints as matrices do (flat ``f32`` arrays, one atomic per entry):
reading an element is a ``Load`` per float field, storing one a ``Store`` per float field.
A struct with adjoints used whole in replay text would drop them, and is refused.

``spirthon.tape`` checks the rules that involve several launches.

Invariants: every versioned name is assigned before any use on every path of the adjoint
(a branch's names are used only inside that branch's replay and reverse, a merged name is
assigned at the end of both branches); an adjoint name is created zero at the start of the
reverse of the scope that defines its value, and only ever rebound (``g = g + d``), never
changed in place, since a vector is a shared object under CPython.
"""

import ast
import re

from ..arrays import _KIND, has_gradient
from ..structs import StructType, layout

from .linear import AdjointError, Differentiator, _Body, _flag_leaves, _linear_only, _parse_def, _unguard
from .rules import DIFF, MATS, M, S, _entry_texts, _scalar, _zero
from .writer import _Writer


_PREFIXES = {}  # a file's text -> its prefix


def _prefix(text):
    """A prefix that no name in the file starts with."""
    p = _PREFIXES.get(text)
    if p is not None:
        return p
    names = set(re.findall(r"[A-Za-z_]\w*", text))
    k = 0
    while True:
        p = "_ad%s_" % (k or "")
        if not any(n.startswith(p) for n in names):
            break
        k += 1
    if len(_PREFIXES) > 64:
        _PREFIXES.clear()
    _PREFIXES[text] = p
    return p


class Adjoint:
    """A kernel's adjoint: ``text`` (the definitions to append to the kernel's file),
    ``name`` (the adjoint kernel's), ``adjoints`` (array parameter -> its adjoint
    parameter, in the adjoint kernel's order), ``reads`` and ``writes`` (the array
    parameters the kernel reads and writes, each with the line of its first access; an
    array in both, which the kernel reads before it writes, is one the tape copies before
    the launch for the adjoint to read)."""

    def __init__(self, text, name, adjoints, reads, writes, prefix, params, flat, tables):
        self.text, self.name, self.adjoints, self.reads, self.writes = text, name, adjoints, reads, writes
        # The adjoint's name prefix, its parameters as (name, annotation text), and the
        # array parameters whose adjoints are flat f32 arrays, with their entries per element;
        # the module-level tuples the adjoint's text defines (a table's columns).
        self.prefix, self.params, self.flat, self.tables = prefix, params, flat, tables


def adjoint(kernel):
    """The ``Adjoint`` of ``kernel`` (a ``Kernel``, not generic); ``AdjointError`` where it
    cannot be differentiated. A kernel whose ``return``s, ``break``s and ``continue``s do
    not all end branches where the differentiator takes them as they are (guards, the
    branches at the top of a loop's body) is differentiated again with them as flags."""
    try:
        return _adjoint(kernel, False)
    except AdjointError as e:
        if not getattr(e, "leave", False):
            raise
    return _adjoint(kernel, True)


def _adjoint(kernel, flags):
    src = kernel.source
    tree = _parse_def(kernel.fn, src)
    if tree is None:
        raise AdjointError("cannot differentiate kernel `%s`: its source is not available" % kernel.name)
    d = Differentiator(kernel, _prefix(src.text))
    env, arrays = {}, {}
    for p in kernel.params:
        if p.kind == "array":
            d.arrays[p.name] = (d.type_of(p.elem), p.dims)
            arrays[p.name] = p.name
            if isinstance(p.elem, StructType) and has_gradient(p.elem):
                d.struct_grads[p.name] = p.elem
                d.per[p.name] = layout(p.elem).size // 4
        elif p.kind == "generic":
            raise d.error(tree, "a generic kernel is differentiated per specialization (`kernel.specialize(...)`)")
        else:
            t = d.type_of(p.elem)
            if t == "float-other":
                raise d.error(tree, "parameter `%s`: f16 and its vectors and matrices are not differentiable yet" % p.name)
            if t == "other":
                raise d.error(tree, "parameter `%s`: its type is not differentiable yet" % p.name)
            env[p.name] = (p.name, t)
            d.params[p.name] = t
    d.flat = {a for a, (elem, _) in d.arrays.items() if elem in MATS or elem == "quat"} | set(d.struct_grads)
    d.per.update((a, len(_entry_texts(d.arrays[a][0], ""))) for a in d.flat if a not in d.struct_grads)
    body = _Body(d, env, arrays, top=True)
    stmts = [s for s in tree.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    body.stmts(_unguard(d, _flag_leaves(stmts, d.fresh) if flags else stmts))
    if d.later:
        linear = _linear_only(d, body.nodes)
        for arr, error in d.later:
            if arr not in linear:
                raise error
    prefix = d.prefix
    adj = {a: "%sadj_%s" % (prefix, a) for a, (elem, _) in d.arrays.items()
           if (elem in DIFF or a in d.struct_grads) and a not in d.memory}
    params_adj = dict(adj)
    adj.update(d.memory_adj)
    w = _Writer(d, adj)
    group = kernel.workgroup_size[0] * kernel.workgroup_size[1] * kernel.workgroup_size[2]
    for a, elem, size in d.shared_adj:
        # A shared array starts undefined: its adjoint is zeroed before the replay.
        k = d.fresh("z")
        w.line(1, "%s = %sshared_array(%s%s, %s)" % (a, S, S, elem, size))
        w.line(1, "for %s in range(%slocal_index(), %s, %d):" % (k, S, size, group))
        w.line(2, "%s[%s] = %s" % (a, k, _zero(elem)))
        w.line(1, "%sbarrier()" % S)
    w.replay(body.nodes, 1)
    w.vary(body.nodes)
    w.open(body.nodes, 1)
    w.reverse(body.nodes, 1)
    w.close()
    w.line(1, "pass")
    sp = prefix + "sp."
    def elem_text(t):
        """An element type's text: spirthon's by its name, a struct by a name the file binds it to."""
        if not isinstance(t, StructType):
            return sp + t.name
        names = kernel.fn.__globals__
        name = t.__name__ if names.get(t.__name__) is t else next((k for k, v in names.items() if v is t), None)
        if name is None:
            raise d.error(tree, "struct `%s` is not a name of the kernel's file" % t.__name__)
        return name
    array = lambda dims, t: "%s%s[%s]" % (sp, _KIND[dims], elem_text(t) if not isinstance(t, str) else sp + t)
    params = [(p.name, array(p.dims, p.elem) if p.kind == "array" else "bool" if p.elem is bool else elem_text(p.elem))
              for p in kernel.params]
    # (a flat adjoint holds f32 entries, f64 ones for an f64 matrix)
    params += [(g, array(1, _scalar(d.arrays[a][0])) if a in d.flat else array(d.arrays[a][1], d.arrays[a][0])) for a, g in params_adj.items()]
    name = prefix + kernel.name
    lines = ["", "", "import spirthon as %ssp" % prefix, "import math as %smath" % prefix, ""]
    lines += ["%s = %r" % (k, v) for k, v in sorted(d.tables.items())]  # (columns of a module's tables of rows)
    lines += ["",
             "@%skernel(workgroup_size=(%d, %d, %d))" % ((S,) + tuple(kernel.workgroup_size)),
             "def %s(%s):" % (name, ", ".join("%s: %s" % p for p in params))] + w.out
    text = "\n".join(lines) + "\n"
    text = text.replace(S, sp).replace(M, prefix + "math.")
    flat = {a: d.per[a] for a in d.flat if a in params_adj}
    reads = {a: n for a, n in d.reads.items() if a not in d.memory}
    writes = {a: n for a, n in d.writes.items() if a not in d.memory}
    return Adjoint(text, name, params_adj, reads, writes, prefix, params, flat, dict(d.tables))
