//! The fast path's recursive-descent parser: tokens to the same [`Ast`] the reference path
//! builds, or `None` (see the parent module).

use spirthon_ir::Span;

use super::lex::*;
use super::{MAX_HEIGHT, MAX_LOOPS, MAX_NESTING};
use crate::ast::*;

pub(super) struct Parser<'s> {
    pub(super) src: &'s str,
    pub(super) toks: Vec<Tok>,
    pub(super) i: usize,
    pub(super) ast: Ast,
    /// Height of each expression node, parallel to `ast.exprs`.
    pub(super) heights: Vec<u16>,
    pub(super) nesting: u32,
    /// Loops around the statement being parsed (CPython rejects more than 20 in one
    /// function; the reference path says so).
    pub(super) loops: u32,
    /// Reading a module constant's value, where a list is a constant table as a tuple is.
    pub(super) lists: bool,
}

impl Parser<'_> {
    fn peek(&self) -> K {
        self.toks[self.i].k
    }

    fn peek_at(&self, ahead: usize) -> K {
        self.toks[(self.i + ahead).min(self.toks.len() - 1)].k
    }

    fn tok(&self) -> Tok {
        self.toks[self.i]
    }

    fn bump(&mut self) -> Tok {
        let t = self.toks[self.i];
        if t.k != K::Eof {
            self.i += 1;
        }
        t
    }

    fn eat(&mut self, k: K) -> bool {
        let hit = self.peek() == k;
        if hit {
            self.bump();
        }
        hit
    }

    fn expect(&mut self, k: K) -> Option<Tok> {
        (self.peek() == k).then(|| self.bump())
    }

    /// The end of the last token consumed.
    fn prev_end(&self) -> u32 {
        self.toks[self.i - 1].end
    }

    fn text(&self, t: Tok) -> &str {
        &self.src[t.start as usize..t.end as usize]
    }

    fn name(&mut self) -> Option<(String, Tok)> {
        let t = self.expect(K::Name)?;
        Some((self.text(t).to_string(), t))
    }

    fn enter(&mut self) -> Option<()> {
        self.nesting += 1;
        (self.nesting <= MAX_NESTING).then_some(())
    }

    fn leave(&mut self) {
        self.nesting -= 1;
    }

    fn node(&mut self, kind: ExprKind, start: u32, end: u32) -> Option<ExprId> {
        let mut height = 0;
        kind.children(|c| height = height.max(self.heights[c.0 as usize]));
        if height + 1 > MAX_HEIGHT {
            return None;
        }
        self.heights.push(height + 1);
        Some(self.ast.add_expr(kind, Span::new(start, end)))
    }

    // ---- top level ------------------------------------------------------------------

    pub(super) fn file(&mut self) -> Option<()> {
        loop {
            match self.peek() {
                K::Eof => return Some(()),
                K::Kw(Kw::Import) => self.import()?,
                K::Kw(Kw::From) => self.import_from()?,
                K::At => {
                    let item = self.decorated()?;
                    self.ast.items.push(item);
                }
                K::Str => {
                    self.bump();
                    self.expect(K::Newline)?;
                }
                K::Name if matches!(self.peek_at(1), K::Colon | K::Assign) => self.constant()?,
                K::Name | K::LParen | K::LBracket => self.unpack()?,
                _ => return None,
            }
        }
    }

    /// `a.b.c` as one string, with the first and last tokens.
    fn dotted(&mut self) -> Option<(String, Tok, Tok)> {
        let (mut name, first) = self.name()?;
        let mut last = first;
        while self.eat(K::Dot) {
            let (part, t) = self.name()?;
            name.push('.');
            name.push_str(&part);
            last = t;
        }
        Some((name, first, last))
    }

    fn import(&mut self) -> Option<()> {
        self.bump();
        loop {
            let (module, first, mut last) = self.dotted()?;
            let alias = if self.eat(K::Kw(Kw::As)) {
                let (alias, t) = self.name()?;
                last = t;
                alias
            } else {
                module.split('.').next().unwrap_or("").to_string()
            };
            self.ast.items.push(Item::Import {
                module,
                alias,
                span: Span::new(first.start, last.end),
            });
            if !self.eat(K::Comma) {
                break;
            }
        }
        self.expect(K::Newline).map(|_| ())
    }

    fn import_from(&mut self) -> Option<()> {
        let start = self.bump().start;
        let (module, ..) = self.dotted()?;
        self.expect(K::Kw(Kw::Import))?;
        let mut names = Vec::new();
        if self.peek() == K::Bin(BinaryOp::Mul) {
            let t = self.bump();
            names.push(("*".to_string(), "*".to_string(), Span::new(t.start, t.end)));
        } else {
            let parens = self.eat(K::LParen);
            loop {
                let (name, first) = self.name()?;
                let (alias, end) = if self.eat(K::Kw(Kw::As)) {
                    let (alias, t) = self.name()?;
                    (alias, t.end)
                } else {
                    (name.clone(), first.end)
                };
                names.push((name, alias, Span::new(first.start, end)));
                if !self.eat(K::Comma) || (parens && self.peek() == K::RParen) {
                    break;
                }
            }
            if parens {
                self.expect(K::RParen)?;
            }
        }
        let span = Span::new(start, self.prev_end());
        self.expect(K::Newline)?;
        self.ast.items.push(Item::ImportFrom {
            module,
            names,
            span,
        });
        Some(())
    }

    /// `NAME = expr` or `NAME: T = expr` at top level (`A = B = expr` is an unpacking).
    fn constant(&mut self) -> Option<()> {
        let (at, exprs) = (self.i, self.ast.exprs.len());
        let (name, first) = self.name()?;
        let annotation = if self.eat(K::Colon) {
            Some(self.test()?)
        } else {
            None
        };
        self.expect(K::Assign)?;
        if annotation.is_none() && self.type_var_ahead() {
            return self.type_var(name, first);
        }
        self.lists = true;
        let value = self.test_list();
        self.lists = false;
        let value = value?;
        if annotation.is_none() && self.peek() == K::Assign {
            // Chained: read again from the first name, as targets.
            self.i = at;
            self.ast.exprs.truncate(exprs);
            self.heights.truncate(exprs);
            return self.unpack();
        }
        let span = Span::new(first.start, self.prev_end());
        self.expect(K::Newline)?;
        self.ast.items.push(Item::Assign {
            name,
            annotation,
            value,
            span,
        });
        Some(())
    }

    /// `A, B = 4, 8`, `(X, Y), Z = ...`, `[A, B] = ...`, `A = B = 4` at top level: the
    /// reference path's [`Item::Unpack`] (an [`Item::Assign`] for one plain name). Gives up
    /// on any target other than names in tuples and lists.
    fn unpack(&mut self) -> Option<()> {
        let start = self.tok().start;
        self.lists = true;
        let mut exprs = Vec::new();
        loop {
            let Some(e) = self.test_list() else {
                self.lists = false;
                return None;
            };
            exprs.push(e);
            if !self.eat(K::Assign) {
                break;
            }
        }
        self.lists = false;
        let value = exprs.pop()?;
        let span = Span::new(start, self.prev_end());
        self.expect(K::Newline)?;
        if exprs.is_empty() || !exprs.iter().all(|&t| self.names_only(t)) {
            return None;
        }
        let item = match (exprs.as_slice(), &self.ast.expr(exprs[0]).kind) {
            ([_], ExprKind::Name(name)) => Item::Assign {
                name: name.clone(),
                annotation: None,
                value,
                span,
            },
            _ => Item::Unpack {
                targets: exprs,
                value,
                span,
            },
        };
        self.ast.items.push(item);
        Some(())
    }

    /// Whether `target` is names only, in tuples (a top-level unpacking's target).
    fn names_only(&self, target: ExprId) -> bool {
        let mut work = vec![target];
        while let Some(t) = work.pop() {
            match &self.ast.expr(t).kind {
                ExprKind::Name(_) => {}
                ExprKind::Tuple(items) => work.extend(items.iter().copied()),
                _ => return false,
            }
        }
        true
    }

    /// Whether `TypeVar("...` or `a.b.TypeVar("...` comes next.
    fn type_var_ahead(&self) -> bool {
        let mut k = 0;
        loop {
            if self.peek_at(k) != K::Name {
                return false;
            }
            if self.peek_at(k + 1) == K::Dot {
                k += 2;
                continue;
            }
            let t = self.toks[(self.i + k).min(self.toks.len() - 1)];
            return self.text(t) == "TypeVar"
                && self.peek_at(k + 1) == K::LParen
                && self.peek_at(k + 2) == K::Str;
        }
    }

    /// `NAME = TypeVar("NAME", ...)`: the callee as an expression; the arguments are not
    /// the kernel language's and are skipped to the closing parenthesis.
    fn type_var(&mut self, name: String, first: Tok) -> Option<()> {
        let start = self.tok().start;
        let mut callee = self.atom()?;
        while self.eat(K::Dot) {
            let (attr, t) = self.name()?;
            callee = self.node(ExprKind::Attr(callee, attr), start, t.end)?;
        }
        self.expect(K::LParen)?;
        let mut depth = 1;
        while depth > 0 {
            match self.peek() {
                K::LParen | K::LBracket => depth += 1,
                K::RParen | K::RBracket => depth -= 1,
                K::Newline | K::Eof => return None,
                _ => {}
            }
            self.bump();
        }
        let span = Span::new(first.start, self.prev_end());
        self.expect(K::Newline)?;
        self.ast.items.push(Item::TypeVar { name, callee, span });
        Some(())
    }

    /// A decorated `def` (a kernel or func) or `class` (a struct).
    fn decorated(&mut self) -> Option<Item> {
        let (e0, s0) = (self.ast.exprs.len() as u32, self.ast.stmts.len() as u32);
        let mut decorators = Vec::new();
        while self.eat(K::At) {
            decorators.push(self.test()?);
            self.expect(K::Newline)?;
        }
        if self.peek() == K::Kw(Kw::Class) {
            return self.struct_def(&decorators).map(Item::Struct);
        }
        self.def(decorators, e0, s0).map(Item::Def)
    }

    /// `@struct class Name:` and its fields, each `name: T` on a line of its own (after a
    /// docstring, with `pass` lines); anything else, a base class or another decorator, is
    /// the reference path's to report.
    fn struct_def(&mut self, decorators: &[ExprId]) -> Option<StructDecl> {
        let [decorator] = decorators else { return None };
        let is_struct = match &self.ast.expr(*decorator).kind {
            ExprKind::Name(n) | ExprKind::Attr(_, n) => n == "struct",
            _ => false,
        };
        if !is_struct {
            return None;
        }
        let start = self.bump().start;
        let (name, t) = self.name()?;
        let name_span = Span::new(start, t.end);
        self.expect(K::Colon)?;
        self.expect(K::Newline)?;
        self.expect(K::Indent)?;
        if self.peek() == K::Str && self.peek_at(1) == K::Newline {
            self.bump();
            self.bump();
        }
        let mut fields = Vec::new();
        while !self.eat(K::Dedent) {
            if self.eat(K::Kw(Kw::Pass)) {
                self.expect(K::Newline)?;
                continue;
            }
            let (field, first) = self.name()?;
            self.expect(K::Colon)?;
            let ann = self.test()?;
            fields.push((field, ann, Span::new(first.start, self.prev_end())));
            self.expect(K::Newline)?;
        }
        Some(StructDecl {
            name,
            name_span,
            decorator: *decorator,
            fields,
        })
    }

    fn def(&mut self, decorators: Vec<ExprId>, e0: u32, s0: u32) -> Option<FuncDef> {
        if !decorators.iter().any(|&d| self.is_device_decorator(d)) {
            return None;
        }
        let start = self.expect(K::Kw(Kw::Def))?.start;
        let (name, _) = self.name()?;
        let name_span = Span::new(start, start + 4 + name.len() as u32);
        self.expect(K::LParen)?;
        let mut params = Vec::new();
        while self.peek() != K::RParen {
            let (pname, t) = self.name()?;
            // A parameter named twice is CPython's error: the reference path reports it.
            if params.iter().any(|p: &Param| p.name == pname) {
                return None;
            }
            let annotation = if self.eat(K::Colon) {
                Some(self.test()?)
            } else {
                None
            };
            let span = Span::new(t.start, self.prev_end());
            let default = if self.eat(K::Assign) {
                Some(self.test()?)
            } else {
                None
            };
            // A parameter without a default after one with a default is CPython's syntax
            // error: the reference path reports it.
            if default.is_none() && params.iter().any(|p: &Param| p.default.is_some()) {
                return None;
            }
            params.push(Param {
                name: pname,
                annotation,
                default,
                span,
            });
            if !self.eat(K::Comma) {
                break;
            }
        }
        self.expect(K::RParen)?;
        let returns = if self.eat(K::Arrow) {
            Some(self.test()?)
        } else {
            None
        };
        self.expect(K::Colon)?;
        let (body, _) = self.suite()?;
        Some(FuncDef {
            name,
            name_span,
            decorators,
            type_params: Vec::new(),
            params,
            returns,
            body,
            exprs: e0..self.ast.exprs.len() as u32,
            stmts: s0..self.ast.stmts.len() as u32,
        })
    }

    fn is_device_decorator(&self, d: ExprId) -> bool {
        let target = match &self.ast.expr(d).kind {
            ExprKind::Call { func, .. } => *func,
            _ => d,
        };
        match &self.ast.expr(target).kind {
            ExprKind::Name(n) | ExprKind::Attr(_, n) => matches!(n.as_str(), "kernel" | "func"),
            _ => false,
        }
    }

    // ---- statements -----------------------------------------------------------------

    /// `NEWLINE INDENT stmt+ DEDENT`, and where its last statement ends. A leading string
    /// statement is a docstring: it goes, but still ends a suite of nothing else.
    fn suite(&mut self) -> Option<(Vec<StmtId>, u32)> {
        self.expect(K::Newline)?;
        self.expect(K::Indent)?;
        self.enter()?;
        let mut end = 0;
        if self.peek() == K::Str && self.peek_at(1) == K::Newline {
            end = self.bump().end;
            self.bump();
        }
        let mut body = Vec::new();
        while !self.eat(K::Dedent) {
            let s = self.stmt()?;
            end = self.ast.stmt(s).span.end;
            body.push(s);
        }
        self.leave();
        Some((body, end))
    }

    /// A loop's body: a suite one loop deeper.
    fn loop_body(&mut self) -> Option<(Vec<StmtId>, u32)> {
        self.loops += 1;
        if self.loops > MAX_LOOPS {
            return None;
        }
        let body = self.suite()?;
        self.loops -= 1;
        Some(body)
    }

    fn stmt(&mut self) -> Option<StmtId> {
        let t = self.tok();
        let kind = match t.k {
            K::Kw(Kw::If) => return self.if_stmt(),
            K::Kw(Kw::While) => {
                self.bump();
                let test = self.test()?;
                self.expect(K::Colon)?;
                let (body, body_end) = self.loop_body()?;
                let (orelse, end) = self.else_suite(body_end)?;
                let kind = StmtKind::While(test, body, orelse);
                return Some(self.ast.add_stmt(kind, Span::new(t.start, end)));
            }
            K::Kw(Kw::For) => {
                self.bump();
                let target = self.target_list()?;
                if !self.is_target(target, true) {
                    return None;
                }
                self.expect(K::Kw(Kw::In))?;
                let iter = self.test_list()?;
                self.expect(K::Colon)?;
                let (body, body_end) = self.loop_body()?;
                let (orelse, end) = self.else_suite(body_end)?;
                let kind = StmtKind::For(target, iter, body, orelse);
                return Some(self.ast.add_stmt(kind, Span::new(t.start, end)));
            }
            K::Kw(Kw::Break) => {
                self.bump();
                StmtKind::Break
            }
            K::Kw(Kw::Continue) => {
                self.bump();
                StmtKind::Continue
            }
            K::Kw(Kw::Pass) => {
                self.bump();
                StmtKind::Pass
            }
            K::Kw(Kw::Return) => {
                self.bump();
                let value = match self.peek() {
                    K::Newline => None,
                    _ => Some(self.test_list()?),
                };
                StmtKind::Return(value)
            }
            K::Kw(Kw::Assert) => {
                self.bump();
                let test = self.test()?;
                let message = match self.eat(K::Comma) {
                    true => Some(self.plain_string()?),
                    false => None,
                };
                StmtKind::Assert(test, message)
            }
            K::Kw(_) if !self.can_start_expr() => return None,
            _ => self.simple()?,
        };
        let span = Span::new(t.start, self.prev_end());
        self.expect(K::Newline)?;
        Some(self.ast.add_stmt(kind, span))
    }

    /// A one-line string literal without prefix or escapes (`"text"`, `'text'`), as an
    /// assert's message; anything else is left to the reference parser, which decodes them.
    fn plain_string(&mut self) -> Option<String> {
        if self.peek() != K::Str {
            return None;
        }
        let t = self.bump();
        let text = &self.src[t.start as usize..t.end as usize];
        let quote = text.chars().next()?;
        let inner = text.strip_prefix(quote)?.strip_suffix(quote)?;
        let plain = matches!(quote, '"' | '\'') && !inner.contains(['\\', '"', '\'', '\n', '\r']);
        plain.then(|| inner.to_string())
    }

    /// `if` with its `elif` chain: each `elif` is an `If` in the `else` of the one before,
    /// spanning from its keyword to the end of the whole chain. The chain is read in a loop
    /// (it may be thousands long) and its `If`s are added innermost first, as the reference
    /// path's conversion adds them.
    fn if_stmt(&mut self) -> Option<StmtId> {
        let mut links = Vec::new();
        let (mut orelse, end) = loop {
            let start = self.bump().start;
            let test = self.test()?;
            self.expect(K::Colon)?;
            let (body, body_end) = self.suite()?;
            links.push((start, test, body));
            if self.peek() != K::Kw(Kw::Elif) {
                break self.else_suite(body_end)?;
            }
        };
        let mut id = None;
        for (start, test, body) in links.into_iter().rev() {
            let kind = StmtKind::If(test, body, orelse);
            let s = self.ast.add_stmt(kind, Span::new(start, end));
            orelse = vec![s];
            id = Some(s);
        }
        id
    }

    /// An optional `else:` suite and where the whole statement ends (`end` without one).
    fn else_suite(&mut self, end: u32) -> Option<(Vec<StmtId>, u32)> {
        if !self.eat(K::Kw(Kw::Else)) {
            return Some((Vec::new(), end));
        }
        self.expect(K::Colon)?;
        self.suite()
    }

    /// Expression statements and the three kinds of assignment.
    fn simple(&mut self) -> Option<StmtKind> {
        let first = self.test_list()?;
        Some(match self.peek() {
            K::Assign => {
                let mut targets = vec![first];
                self.bump();
                let mut value = self.test_list()?;
                while self.eat(K::Assign) {
                    targets.push(value);
                    value = self.test_list()?;
                }
                if !targets.iter().all(|&t| self.is_target(t, true)) {
                    return None;
                }
                StmtKind::Assign(targets, value)
            }
            K::Aug(op) => {
                if !self.is_target(first, false) {
                    return None;
                }
                self.bump();
                StmtKind::AugAssign(first, op, self.test_list()?)
            }
            K::Colon => {
                if !self.is_target(first, false) {
                    return None;
                }
                self.bump();
                let annotation = self.test()?;
                let value = match self.eat(K::Assign) {
                    true => Some(self.test_list()?),
                    false => None,
                };
                StmtKind::AnnAssign(first, annotation, value)
            }
            _ => StmtKind::Expr(first),
        })
    }

    /// Whether Python can assign to `e`: a name, an attribute or an element, or (where
    /// `tuples`) a tuple of such. Anything else is a syntax error, left to the reference.
    fn is_target(&self, e: ExprId, tuples: bool) -> bool {
        let mut work = vec![e];
        while let Some(e) = work.pop() {
            match &self.ast.expr(e).kind {
                ExprKind::Name(_) | ExprKind::Attr(..) | ExprKind::Subscript(..) => {}
                ExprKind::Tuple(elts) if tuples => work.extend(elts.iter().copied()),
                _ => return false,
            }
        }
        true
    }

    // ---- expressions ----------------------------------------------------------------

    /// `a, b, c` (a tuple spanning its elements and any trailing comma) or one expression.
    fn list_of(&mut self, item: fn(&mut Self) -> Option<ExprId>) -> Option<ExprId> {
        let start = self.tok().start;
        let first = item(self)?;
        if self.peek() != K::Comma {
            return Some(first);
        }
        let mut elts = vec![first];
        while self.eat(K::Comma) {
            if !self.can_start_expr() {
                break;
            }
            elts.push(item(self)?);
        }
        self.node(ExprKind::Tuple(elts), start, self.prev_end())
    }

    fn can_start_expr(&self) -> bool {
        matches!(
            self.peek(),
            K::Name
                | K::Int(_)
                | K::Float(_)
                | K::LParen
                | K::Tilde
                | K::Bin(BinaryOp::Add | BinaryOp::Sub)
                | K::Kw(Kw::Not | Kw::True | Kw::False | Kw::None)
        )
    }

    fn test_list(&mut self) -> Option<ExprId> {
        self.list_of(Self::test)
    }

    fn target_list(&mut self) -> Option<ExprId> {
        self.list_of(Self::bit_or)
    }

    /// A full expression: `body if test else orelse`, or an `or` chain.
    fn test(&mut self) -> Option<ExprId> {
        self.enter()?;
        let (body_at, start) = (self.ast.exprs.len(), self.tok().start);
        let body = self.or_test()?;
        let result = if self.eat(K::Kw(Kw::If)) {
            let test_at = self.ast.exprs.len();
            let test = self.or_test()?;
            self.expect(K::Kw(Kw::Else))?;
            let orelse_at = self.ast.exprs.len();
            let orelse = self.test()?;
            let (test, body) = self.test_first(body_at, test_at, orelse_at, test, body);
            self.node(ExprKind::IfExp(test, body, orelse), start, self.prev_end())?
        } else {
            body
        };
        self.leave();
        Some(result)
    }

    /// The reference path builds a ternary's test before its body; source order is the
    /// other way round. Rotates the arena slots `[body_at, test_at)` (the body) behind
    /// `[test_at, orelse_at)` (the test), renumbering references; returns the new ids of
    /// the test and the body.
    fn test_first(
        &mut self,
        body_at: usize,
        test_at: usize,
        orelse_at: usize,
        test: ExprId,
        body: ExprId,
    ) -> (ExprId, ExprId) {
        let (body_len, test_len) = (test_at - body_at, orelse_at - test_at);
        let map = |e: ExprId| {
            let i = e.0 as usize;
            if (body_at..test_at).contains(&i) {
                ExprId((i + test_len) as u32)
            } else if (test_at..orelse_at).contains(&i) {
                ExprId((i - body_len) as u32)
            } else {
                e
            }
        };
        for e in &mut self.ast.exprs[body_at..orelse_at] {
            e.kind.children_mut(|c| *c = map(*c));
        }
        self.ast.exprs[body_at..orelse_at].rotate_left(body_len);
        self.heights[body_at..orelse_at].rotate_left(body_len);
        (map(test), map(body))
    }

    fn or_test(&mut self) -> Option<ExprId> {
        self.bool_chain(Kw::Or, Self::and_test)
    }

    fn and_test(&mut self) -> Option<ExprId> {
        self.bool_chain(Kw::And, Self::not_test)
    }

    fn bool_chain(
        &mut self,
        kw: Kw,
        operand: impl Fn(&mut Self) -> Option<ExprId>,
    ) -> Option<ExprId> {
        let start = self.tok().start;
        let first = operand(self)?;
        if self.peek() != K::Kw(kw) {
            return Some(first);
        }
        let mut values = vec![first];
        while self.eat(K::Kw(kw)) {
            values.push(operand(self)?);
        }
        self.node(
            ExprKind::BoolOp(kw == Kw::And, values),
            start,
            self.prev_end(),
        )
    }

    fn not_test(&mut self) -> Option<ExprId> {
        if self.peek() != K::Kw(Kw::Not) {
            return self.comparison();
        }
        let start = self.bump().start;
        self.enter()?;
        let operand = self.not_test()?;
        self.leave();
        self.node(
            ExprKind::Unary(UnaryOp::Not, operand),
            start,
            self.prev_end(),
        )
    }

    fn comparison(&mut self) -> Option<ExprId> {
        let start = self.tok().start;
        let left = self.bit_or()?;
        let mut rest = Vec::new();
        loop {
            match self.peek() {
                K::Cmp(op) => {
                    self.bump();
                    rest.push((op, self.bit_or()?));
                }
                K::Kw(Kw::In | Kw::Not | Kw::Is) => return None,
                _ => break,
            }
        }
        if rest.is_empty() {
            return Some(left);
        }
        self.node(ExprKind::Compare(left, rest), start, self.prev_end())
    }

    fn bit_or(&mut self) -> Option<ExprId> {
        self.binary_level(0)
    }

    /// Left-associative binary operators, loosest first: `|`, `^`, `&`, shifts, `+ -`,
    /// `* / // %`, by precedence climbing: the operators binding at least as tightly as
    /// level `min`, one call per operand where nesting a call per level took six.
    fn binary_level(&mut self, min: u8) -> Option<ExprId> {
        let start = self.tok().start;
        let mut left = self.factor()?;
        loop {
            let op = match self.peek() {
                K::Bin(op) => op,
                // `@` in an expression: the matrix product (a decorator starts a line).
                K::At => BinaryOp::MatMul,
                _ => break,
            };
            let level = match op {
                BinaryOp::BitOr => 0,
                BinaryOp::BitXor => 1,
                BinaryOp::BitAnd => 2,
                BinaryOp::Shl | BinaryOp::Shr => 3,
                BinaryOp::Add | BinaryOp::Sub => 4,
                BinaryOp::Mul
                | BinaryOp::Div
                | BinaryOp::FloorDiv
                | BinaryOp::Mod
                | BinaryOp::MatMul => 5,
                _ => break,
            };
            if level < min {
                break;
            }
            self.bump();
            let right = self.binary_level(level + 1)?;
            left = self.node(ExprKind::Binary(op, left, right), start, self.prev_end())?;
        }
        Some(left)
    }

    fn factor(&mut self) -> Option<ExprId> {
        let op = match self.peek() {
            K::Bin(BinaryOp::Sub) => UnaryOp::Neg,
            K::Bin(BinaryOp::Add) => UnaryOp::Pos,
            K::Tilde => UnaryOp::Invert,
            _ => return self.power(),
        };
        let start = self.bump().start;
        self.enter()?;
        let operand = self.factor()?;
        self.leave();
        self.node(ExprKind::Unary(op, operand), start, self.prev_end())
    }

    fn power(&mut self) -> Option<ExprId> {
        let start = self.tok().start;
        let base = self.primary()?;
        if self.peek() != K::Bin(BinaryOp::Pow) {
            return Some(base);
        }
        self.bump();
        self.enter()?;
        let exponent = self.factor()?;
        self.leave();
        self.node(
            ExprKind::Binary(BinaryOp::Pow, base, exponent),
            start,
            self.prev_end(),
        )
    }

    /// An atom followed by attribute, call and subscript trailers.
    fn primary(&mut self) -> Option<ExprId> {
        let start = self.tok().start;
        let mut e = self.atom()?;
        loop {
            e = match self.peek() {
                K::Dot => {
                    self.bump();
                    let (attr, t) = self.name()?;
                    self.node(ExprKind::Attr(e, attr), start, t.end)?
                }
                K::LParen => {
                    self.bump();
                    let kind = self.call_args(e)?;
                    let end = self.expect(K::RParen)?.end;
                    self.node(kind, start, end)?
                }
                K::LBracket => {
                    self.bump();
                    let index = self.list_of(Self::test)?;
                    let end = self.expect(K::RBracket)?.end;
                    self.node(ExprKind::Subscript(e, index), start, end)?
                }
                _ => return Some(e),
            };
        }
    }

    fn call_args(&mut self, func: ExprId) -> Option<ExprKind> {
        let (mut args, mut keywords) = (Vec::new(), Vec::new());
        while self.peek() != K::RParen {
            if self.peek() == K::Name && self.peek_at(1) == K::Assign {
                let (name, t) = self.name()?;
                self.bump();
                let value = self.test()?;
                let span = Span::new(t.start, self.prev_end());
                keywords.push(Keyword { name, value, span });
            } else if keywords.is_empty() {
                args.push(self.test()?);
            } else {
                return None;
            }
            if !self.eat(K::Comma) {
                break;
            }
        }
        Some(ExprKind::Call {
            func,
            args,
            keywords,
        })
    }

    fn atom(&mut self) -> Option<ExprId> {
        let t = self.tok();
        let kind = match t.k {
            K::Name => ExprKind::Name(self.text(t).to_string()),
            K::Int(v) => ExprKind::Int(v.into()),
            K::Float(v) => ExprKind::Float(v),
            K::Kw(Kw::True) => ExprKind::Bool(true),
            K::Kw(Kw::False) => ExprKind::Bool(false),
            K::Kw(Kw::None) => ExprKind::None,
            K::LParen => return self.parenthesized(),
            K::LBracket if self.lists => return self.list_display(),
            _ => return None,
        };
        self.bump();
        self.node(kind, t.start, t.end)
    }

    /// `name := test` (an assignment expression, which this subset reads in parentheses
    /// only: elsewhere the reference parser decides), or a `test`.
    fn named_test(&mut self) -> Option<ExprId> {
        if self.peek() != K::Name || self.peek_at(1) != K::Walrus {
            return self.test();
        }
        let t = self.bump();
        let target = self.node(ExprKind::Name(self.text(t).to_string()), t.start, t.end)?;
        self.bump();
        let value = self.test()?;
        let end = self.prev_end();
        self.node(ExprKind::Walrus(target, value), t.start, end)
    }

    /// `()` and `(a, b)` are tuples spanning their parentheses; `(a)` is `a`, spanning `a`.
    /// `[a, b, ...]` in a module constant: the tuple of its items, as the reference path
    /// reads it there.
    fn list_display(&mut self) -> Option<ExprId> {
        let start = self.bump().start;
        self.enter()?;
        let mut elts = Vec::new();
        while self.peek() != K::RBracket {
            elts.push(self.test()?);
            if !self.eat(K::Comma) {
                break;
            }
        }
        let end = self.expect(K::RBracket)?.end;
        self.leave();
        self.node(ExprKind::Tuple(elts), start, end)
    }

    fn parenthesized(&mut self) -> Option<ExprId> {
        let start = self.bump().start;
        self.enter()?;
        let mut elts = Vec::new();
        let mut comma = false;
        while self.peek() != K::RParen {
            elts.push(self.named_test()?);
            comma = self.eat(K::Comma);
            if !comma {
                break;
            }
        }
        let end = self.expect(K::RParen)?.end;
        self.leave();
        match elts[..] {
            [one] if !comma => Some(one),
            _ => self.node(ExprKind::Tuple(elts), start, end),
        }
    }
}
