//! A builder of SSA-form functions by hand, for the middle end's unit tests.

use spirthon_ir::{
    Block, BlockData, Const, Function, IndexVec, Inst, Op, Phi, PhiData, Ref, Span, Term, Ty,
    Value, Var, VarInfo,
};

pub struct Fb {
    pub f: Function<Ref>,
}

impl Fb {
    /// A func with no parameters returning `ret`, and one variable `v` of type `i32`.
    pub fn new(ret: Option<Ty>) -> Fb {
        Fb {
            f: Function {
                name: "t".into(),
                span: Span::new(0, 0),
                params: Vec::new(),
                ret,
                insts: IndexVec::new(),
                blocks: IndexVec::new(),
                order: Vec::new(),
                vars: IndexVec::from(vec![VarInfo {
                    name: "v".into(),
                    ty: Ty::I32,
                }]),
                phis: IndexVec::new(),
                reachable: IndexVec::new(),
            },
        }
    }
    /// A new reachable block, last in the order.
    pub fn block(&mut self) -> Block {
        let b = Block::new(self.f.blocks.len());
        self.f.blocks.push(BlockData::default());
        self.f.order.push(b);
        self.f.reachable.push(true);
        b
    }
    pub fn inst(&mut self, b: Block, op: Op, ty: Option<Ty>, args: &[Ref]) -> Ref {
        let v = Value::new(self.f.insts.len());
        self.f.insts.push(Inst {
            op,
            ty,
            args: spirthon_ir::Args::from_slice(args),
            span: Span::new(0, 0),
            var: None,
        });
        self.f.blocks[b].insts.push(v);
        Ref::Inst(v)
    }
    pub fn konst(&mut self, b: Block, c: Const) -> Ref {
        self.inst(b, Op::Const(c), Some(c.ty()), &[])
    }
    pub fn term(&mut self, b: Block, t: Term<Ref>) {
        self.f.blocks[b].term = t;
    }
    pub fn phi(&mut self, b: Block, ty: Ty, args: &[(Block, Ref)]) -> Ref {
        let p = Phi::new(self.f.phis.len());
        self.f.phis.push(PhiData {
            block: b,
            var: Var::new(0),
            ty,
            args: args.to_vec(),
            live: true,
        });
        Ref::Phi(p)
    }
}

/// `if c: x = p0 else: y = p1; return phi(x, y)`, and the blocks for the caller to break.
pub fn diamond() -> (Fb, [spirthon_ir::Block; 4], [Ref; 3]) {
    let mut fb = Fb::new(Some(Ty::I32));
    let [e, t, f, j] = [fb.block(), fb.block(), fb.block(), fb.block()];
    let c = fb.konst(e, Const::Bool(true));
    fb.term(e, Term::Branch(c, t, f));
    let x = fb.inst(t, Op::Param(0), Some(Ty::I32), &[]);
    fb.term(t, Term::Jump(j));
    let y = fb.inst(f, Op::Param(1), Some(Ty::I32), &[]);
    fb.term(f, Term::Jump(j));
    let p = fb.phi(j, Ty::I32, &[(t, x), (f, y)]);
    fb.term(j, Term::Return(Some(p)));
    (fb, [e, t, f, j], [x, y, p])
}
