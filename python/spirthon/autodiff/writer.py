"""Writing the adjoint out (``spirthon.autodiff``): the replay of a kernel's linear form,
then its reverse, as lines of the kernel language.

Invariants: an adjoint name is first assigned by the first addition to it in the reverse of
the scope that defines its value, or, when that addition is inside a nested branch or loop,
created zero just before that construct; until then it is zero, and the reverse skips what
would add a multiple of it (a value whose adjoint is zero passes nothing on). An adjoint is
only ever rebound (``g = g + d``), never changed in place, since a vector is a shared object
under CPython. The replay writes no parameter array, and the reverse of a write reads and
clears the element's adjoint before any later write's reverse could see it.

A shared or local array's writes all come before its reads (``linear``), so after the
replay each holds what the kernel's reads saw: a replay inside the reverse (of a branch, of
a loop's iteration) writes only the arrays it declares itself, and reads the others as the
first replay left them (writing them again would add an `+=` twice).
"""

from .linear import _Barrier, _Declare, _For, _If, _Let, _Load, _Plain, _Store, _declared, _writes_memory
from .rules import DIFF, FLOAT_VECS, G, MATS, S, SCALARS, _entry_texts, _flat, _index, _ones, _paren, _row, _size, _zero


def _copy(value, t):
    """``value`` (of type ``t``) as the right side of a copy to another name: an int
    vector as a new vector (`v + 0`), since the replay assigns its components in place and
    under CPython `w = v` would give the two names one vector."""
    return "%s + 0" % value if t == "ivec" else value


class _Scope:
    """The adjoints of the values one scope's nodes define (name -> type) while its reverse
    is written: those assigned so far, and those an addition inside the nested construct
    being written (from ``mark``, a position in the output) needs created zero before it."""
    __slots__ = ("types", "assigned", "needed", "mark", "depth")

    def __init__(self, types, depth):
        self.types, self.depth = types, depth
        self.assigned, self.needed, self.mark = set(), [], None


class _Writer:
    """The adjoint's body: the replay of the linear form, then its reverse."""

    def __init__(self, d, adj):
        self.d, self.adj, self.out = d, adj, []
        self.scopes = []
        self.active = set()

    def vary(self, nodes):
        """Adds to ``active`` the names of ``nodes`` whose values depend on a load from an
        array with an adjoint (the others' adjoints are never read: nothing is added to
        them)."""
        active = self.active
        for n in nodes:
            if isinstance(n, _Load):
                if n.array in self.adj:
                    active.add(n.var)
            elif isinstance(n, _Let):
                if any(r[0] in active for r in n.rules):
                    active.add(n.var)
            elif isinstance(n, _If):
                self.vary(n.then)
                self.vary(n.other)
                for m in n.merges:
                    if m[2] in active or m[3] in active:
                        active.add(m[0])
            elif isinstance(n, _For):
                # Until nothing changes: a carried value depends on the previous iteration's.
                size = -1
                while size != len(active):
                    size = len(active)
                    for c in n.carried:
                        if c[2] in active or c[3] in active:
                            active.add(c[0])
                    self.vary(n.body)

    def declared(self, nodes, loop=None):
        """What a replay of ``nodes`` inside the reverse writes (``replay``'s ``keep``): the
        arrays they declare, and those written whole at each iteration of ``loop`` (whose
        body they are) or of a loop among them."""
        if not self.d.memory:
            return None
        return _declared(nodes) | (loop.tiles if loop is not None else frozenset())

    def line(self, depth, text):
        self.out.append("    " * depth + text)

    def g(self, name):
        """The adjoint's name: the value's own with ``_g``; a parameter's under the prefix."""
        return name + "_g" if name.startswith(self.d.prefix) else "%sg_%s" % (self.d.prefix, name)

    def replay(self, nodes, depth, keep=None):
        """The replay of ``nodes``; ``keep``: inside the reverse, the shared and local arrays
        whose writes it repeats (those declared in the nodes replayed), else every one."""
        for n in nodes:
            if isinstance(n, _Let):
                self.line(depth, "%s = %s" % (n.var, n.text))
            elif isinstance(n, _Load):
                self.line(depth, "%s = %s[%s]%s" % (n.var, n.array, n.index, "" if n.field is None else "." + n.field[0]))
            elif isinstance(n, (_Plain, _Declare)):
                self.line(depth, n.text)
            elif isinstance(n, _Store):
                if n.replay is not None and (keep is None or n.array in keep):
                    self.line(depth, n.replay if n.call else "%s[%s] = %s" % (n.array, n.index, n.replay))
            elif isinstance(n, _Barrier):
                self.line(depth, "%sbarrier()" % S)
            elif isinstance(n, _If):
                if not n.merges and not (self.d.memory and _writes_memory(n)):
                    continue  # nothing after it reads what it defines; its reverse replays it
                for branch, k, word in ((n.then, 2, "if %s:" % n.cond), (n.other, 3, "else:")):
                    self.line(depth, word)
                    self.replay(branch, depth + 1, keep)
                    for m in n.merges:
                        self.line(depth + 1, "%s = %s" % (m[0], _copy(m[k], m[1])))
                    self.line(depth + 1, "pass")
            elif isinstance(n, _For) and n.test is not None:
                # A while loop: replayed, counting its iterations.
                for h, t, entry, back, name in n.carried:
                    self.line(depth, "%s = %s" % (h, _copy(entry, t)))
                self.line(depth, "%s = 0" % n.counter)
                self.line(depth, "while %s:" % n.test)
                self.replay(n.body, depth + 1, keep)
                for h, t, entry, back, name in n.carried:
                    self.line(depth + 1, "%s = %s" % (h, _copy(back, t)))
                self.line(depth + 1, "%s = %s + 1" % (n.counter, n.counter))
            elif isinstance(n, _For):
                if not n.carried and not (self.d.memory and _writes_memory(n)):
                    # Nothing after it reads what it defines: only its trip count is needed.
                    lo, hi, st = n.lo, n.hi, n.step
                    if st > 0:
                        self.line(depth, "%s = (%s - %s + %d) // %d if %s > %s else 0" % (n.counter, hi, lo, st - 1, st, hi, lo))
                    else:
                        self.line(depth, "%s = (%s - %s + %d) // %d if %s > %s else 0" % (n.counter, lo, hi, -st - 1, -st, lo, hi))
                    continue
                for h, t, entry, back, name in n.carried:
                    if h in n.checkpoints:
                        arr, ct = n.checkpoints[h]
                        # (bools kept as i32s: local arrays hold numbers)
                        self.line(depth, "%s = %slocal_array(%s%s, %d)" % (arr, S, S, "i32" if ct == "bool" else ct, max(n.static, 1)))
                    self.line(depth, "%s = %s" % (h, _copy(entry, t)))
                self.line(depth, "%s = 0" % n.counter)
                self.line(depth, "for %s in range(%s, %s, %d):" % (n.var, n.lo, n.hi, n.step))
                for h in n.checkpoints:
                    arr, ct = n.checkpoints[h]
                    self.line(depth + 1, "%s[%s] = %s" % (arr, n.counter, "1 if %s else 0" % h if ct == "bool" else h))
                self.replay(n.body, depth + 1, keep)
                for h, t, entry, back, name in n.carried:
                    self.line(depth + 1, "%s = %s" % (h, _copy(back, t)))
                self.line(depth + 1, "%s = %s + 1" % (n.counter, n.counter))

    def open(self, nodes, depth):
        """Starts the reverse of the scope of ``nodes``: the adjoints of the values they
        define, all zero."""
        types = {}
        for n in nodes:
            defs = ()
            if isinstance(n, (_Let, _Load)):
                defs = ((n.var, n.ty),)
            elif isinstance(n, _If):
                defs = [(m[0], m[1]) for m in n.merges]
            elif isinstance(n, _For):
                defs = [(c[0], c[1]) for c in n.carried]
            for var, t in defs:
                if t in DIFF:
                    types[self.g(var)] = t
        self.scopes.append(_Scope(types, depth))

    def close(self):
        self.scopes.pop()

    def owner(self, g):
        for s in reversed(self.scopes):
            if g in s.types:
                return s
        return None

    def zero(self, name):
        """Whether the adjoint of ``name`` is zero here: nothing was added to it yet."""
        g = self.g(name)
        s = self.owner(g)
        return s is not None and g not in s.assigned

    def nested(self):
        """A branch or loop starts here, in the innermost scope."""
        self.scopes[-1].mark = len(self.out)

    def nested_end(self):
        """It ended: the adjoints an addition inside it needed are created zero before it."""
        s = self.scopes[-1]
        if s.needed:
            self.out[s.mark:s.mark] = ["    " * s.depth + "%s = %s" % (g, _zero(s.types[g])) for g in s.needed]
            s.needed = []
        s.mark = None

    def materialize(self, name, t, depth):
        """The adjoint of ``name`` (defined in this scope), created zero if nothing was added
        to it yet (a loop reads and resets its carried values' adjoints)."""
        g = self.g(name)
        s = self.owner(g)
        if s is not None and g not in s.assigned:
            s.assigned.add(g)
            self.line(depth, "%s = %s" % (g, _zero(t)))

    def add(self, depth, name, nt, text, gt):
        """Adds ``text`` (a value of type ``gt``) to the adjoint of ``name`` (of type
        ``nt``), summed over the components where ``name`` is a scalar; nothing where
        ``name`` is not active (a scalar parameter's adjoint is not kept: its gradient is
        not given)."""
        if nt not in DIFF or name not in self.active:
            return
        if gt in MATS and nt in SCALARS:
            tmp = self.d.fresh("sum")
            self.line(depth, "%s = %s" % (tmp, text))
            text, gt = " + ".join("%sdot(%s[%d], %s%s(1.0))" % (S, tmp, r, S, _row(gt)) for r in range(_size(gt))), nt
        if gt in FLOAT_VECS and nt in SCALARS:
            text, gt = "%sdot(%s, %s)" % (S, _paren(text), _ones(gt)), nt
        g = self.g(name)
        s = self.owner(g)
        if s is not None and g not in s.assigned:
            s.assigned.add(g)
            if s is self.scopes[-1]:
                self.line(depth, "%s = %s" % (g, text if gt == nt else "%s + %s" % (_zero(nt), _paren(text))))
                return
            s.needed.append(g)
        self.line(depth, "%s = %s + %s" % (g, g, _paren(text)))

    def flat(self, n, k):
        """The position of entry ``k`` of the element that load or store ``n`` accesses in
        its array's flat adjoint."""
        return _flat(n.index, self.d.per[n.array], k, n.array, self.d.arrays[n.array][1])

    def reverse(self, nodes, depth):
        arrays = self.d.arrays
        for n in reversed(nodes):
            if isinstance(n, _Let):
                if self.zero(n.var):
                    continue
                for line in n.pre:
                    self.line(depth, line.replace(G, self.g(n.var)))
                for rule in n.rules:
                    # (operand, its type, the addition, the addition's type if not the value's)
                    self.add(depth, rule[0], rule[1], rule[2].replace(G, self.g(n.var)), rule[3] if len(rule) > 3 else n.ty)
            elif isinstance(n, _Load):
                if n.array not in self.adj or self.zero(n.var):
                    continue
                a = self.adj[n.array]
                if n.array in self.d.flat:
                    # One atomic per entry: matrices, quats and structs have no atomics.
                    at = 0 if n.field is None else n.field[1]
                    for k, entry in enumerate(_entry_texts(n.ty, self.g(n.var))):
                        self.line(depth, "%satomic_add(%s, %s, %s)" % (S, a, self.flat(n, at + k), entry))
                elif self.d.memory.get(n.array) == "local":
                    self.line(depth, "%s[%s] = %s[%s] + %s" % (a, n.index, a, n.index, self.g(n.var)))
                else:
                    self.line(depth, "%satomic_add(%s, %s, %s)" % (S, a, _index(n.index), self.g(n.var)))
            elif isinstance(n, _Barrier):
                self.line(depth, "%sbarrier()" % S)
            elif isinstance(n, _Store):
                if n.array not in self.adj:
                    continue
                a, elem = self.adj[n.array], arrays[n.array][0]
                if n.array in self.d.flat:
                    # A matrix, a quat or a struct's field (``field``: its path, first entry and type).
                    tmp = self.d.fresh("out_g")
                    at, elem = (0, elem) if n.field is None else n.field[1:]
                    k = len(_entry_texts(elem, ""))
                    entries = ", ".join("%s[%s]" % (a, self.flat(n, at + j)) for j in range(k))
                    self.line(depth, "%s = %s" % (tmp, entries if elem == "f32" else "%s%s(%s)" % (S, elem, entries)))
                    if n.kind == "set":
                        for j in range(k):
                            self.line(depth, "%s[%s] = 0.0" % (a, self.flat(n, at + j)))
                    if n.value is not None:
                        self.add(depth, n.value, n.vty, tmp if n.kind != "sub" else "-" + tmp, elem)
                elif n.kind == "set":
                    tmp = self.d.fresh("out_g")
                    self.line(depth, "%s = %s[%s]" % (tmp, a, n.index))
                    self.line(depth, "%s[%s] = %s" % (a, n.index, _zero(elem)))
                    if n.value is not None:
                        self.add(depth, n.value, n.vty, tmp, elem)
                elif n.value is not None:
                    self.add(depth, n.value, n.vty, "%s%s[%s]" % ("" if n.kind == "add" else "-", a, n.index), elem)
            elif isinstance(n, _If):
                merges = [m for m in n.merges if not self.zero(m[0])]
                self.nested()
                for branch, k, word in ((n.then, 2, "if %s:" % n.cond), (n.other, 3, "else:")):
                    self.line(depth, word)
                    self.replay(branch, depth + 1, self.declared(branch))
                    self.open(branch, depth + 1)
                    for m in merges:
                        self.add(depth + 1, m[k], m[1], self.g(m[0]), m[1])
                    self.reverse(branch, depth + 1)
                    self.close()
                    self.line(depth + 1, "pass")
                self.nested_end()
            elif isinstance(n, _For):
                for h, t, entry, back, name in n.carried:
                    if t in DIFF:
                        self.materialize(h, t, depth)
                self.nested()
                r, j = self.d.fresh("r"), self.d.fresh("j")
                self.line(depth, "for %s in range(%s):" % (r, n.counter))
                self.line(depth + 1, "%s = %s - 1 - %s" % (j, n.counter, r))
                if n.recompute:
                    # The carried values at iteration j: the loop replayed from its entry.
                    for h, t, entry, back, name in n.carried:
                        self.line(depth + 1, "%s = %s" % (h, _copy(entry, t)))
                    if n.var is None:
                        self.line(depth + 1, "for %s in range(%s):" % (self.d.fresh("again"), j))
                    else:
                        self.line(depth + 1, "for %s in range(%s, %s + %s * %d, %d):" % (n.var, n.lo, n.lo, j, n.step, n.step))
                    self.replay(n.body, depth + 2, self.declared(n.body, n))
                    for h, t, entry, back, name in n.carried:
                        self.line(depth + 2, "%s = %s" % (h, _copy(back, t)))
                    self.line(depth + 2, "pass")
                if n.var is not None:
                    self.line(depth + 1, "%s = %s + %s * %d" % (n.var, n.lo, j, n.step))
                for h in n.checkpoints:
                    arr, ct = n.checkpoints[h]
                    self.line(depth + 1, "%s = %s[%s]%s" % (h, arr, j, " != 0" if ct == "bool" else ""))
                self.replay(n.body, depth + 1, self.declared(n.body, n))
                self.open(n.body, depth + 1)
                for h, t, entry, back, name in n.carried:
                    if t in DIFF and back != h:  # (one the body does not change gathers its adjoint over all iterations)
                        self.add(depth + 1, back, t, self.g(h), t)
                        self.line(depth + 1, "%s = %s" % (self.g(h), _zero(t)))
                self.reverse(n.body, depth + 1)
                self.close()
                self.nested_end()
                for h, t, entry, back, name in n.carried:
                    self.add(depth, entry, t, self.g(h), t)

