//! A page's tree, built by html5ever into markup5ever's `RcDom` (the tree htmd
//! converts) within a budget of work.
//!
//! html5ever's work is not linear in the page: it checks the stack of open elements at
//! each tag (120,000 nested `<rb>`s in 480 KB took 59 s), and re-creates every open
//! formatting element at each new paragraph (200 open `<b>`s, then 20,000 `<p>`s, 80 KB:
//! 1 GB and 8 s). Both go through the tree sink, asking an element's name at each step
//! of a check and creating each element, so the sink counts them, and the page is fed in
//! slices so that one over its budget is given up as soon as it is. The sink otherwise
//! hands every call to `RcDom`.

use std::borrow::Cow;
use std::cell::Cell;
use std::rc::Rc;

use html5ever::interface::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::{Attribute, ExpandedName, ParseOpts, QualName, parse_document};
use markup5ever_rcdom::{Handle, RcDom};

/// Steps of work allowed per byte of the page (an element's name
/// asked, an element created, a node appended). The pages of our fixtures (real
/// builds of twenty generators) take at most one step per two bytes.
pub(super) const STEPS_PER_BYTE: u64 = 16;

/// The bytes fed to the parser at a time: the most it works past its budget.
const SLICE: usize = 4 * 1024;

/// The page's tree would take more than its budget of work to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TooCostly;

/// The tree of the page `html`, or [`TooCostly`] once building it passes its budget.
pub(super) fn parse(html: &str) -> Result<Handle, TooCostly> {
    let budget = super::budget(html.len(), STEPS_PER_BYTE);
    let sink = Budgeted {
        dom: RcDom::default(),
        left: Rc::new(Cell::new(budget)),
    };
    let left = Rc::clone(&sink.left);
    // As htmd parses: `<noscript>`'s content is text, as with scripts on.
    let mut parser = parse_document(sink, ParseOpts::default());
    let mut rest = html;
    while !rest.is_empty() {
        let mut end = rest.len().min(SLICE);
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        parser.process(StrTendril::from_slice(&rest[..end]));
        if left.get() == 0 {
            return Err(TooCostly);
        }
        rest = &rest[end..];
    }
    let dom = parser.finish();
    match left.get() {
        0 => Err(TooCostly),
        _ => Ok(dom.document),
    }
}

/// `RcDom`, counting down the steps left.
struct Budgeted {
    dom: RcDom,
    left: Rc<Cell<u64>>,
}

impl Budgeted {
    fn step(&self) {
        self.spend(1);
    }

    fn spend(&self, steps: usize) {
        self.left.set(self.left.get().saturating_sub(steps as u64));
    }
}

/// How many children `node`'s parent has: RcDom finds a node among its siblings one by
/// one.
fn siblings(node: &Handle) -> usize {
    let parent = node.parent.take();
    let count = (parent.as_ref())
        .and_then(std::rc::Weak::upgrade)
        .map_or(1, |p| p.children.borrow().len());
    node.parent.set(parent);
    count
}

impl TreeSink for Budgeted {
    type Handle = Handle;
    type Output = RcDom;
    type ElemName<'a>
        = ExpandedName<'a>
    where
        Self: 'a;

    fn finish(self) -> RcDom {
        self.dom
    }
    fn parse_error(&self, msg: Cow<'static, str>) {
        self.dom.parse_error(msg);
    }
    fn get_document(&self) -> Handle {
        self.dom.get_document()
    }
    fn elem_name<'a>(&'a self, target: &'a Handle) -> ExpandedName<'a> {
        self.step();
        self.dom.elem_name(target)
    }
    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> Handle {
        self.step();
        self.dom.create_element(name, attrs, flags)
    }
    fn create_comment(&self, text: StrTendril) -> Handle {
        self.dom.create_comment(text)
    }
    fn create_pi(&self, target: StrTendril, data: StrTendril) -> Handle {
        self.dom.create_pi(target, data)
    }
    fn append(&self, parent: &Handle, child: NodeOrText<Handle>) {
        self.step();
        self.dom.append(parent, child);
    }
    fn append_based_on_parent_node(
        &self,
        element: &Handle,
        prev_element: &Handle,
        child: NodeOrText<Handle>,
    ) {
        self.step();
        self.dom
            .append_based_on_parent_node(element, prev_element, child);
    }
    fn append_doctype_to_document(
        &self,
        name: StrTendril,
        public_id: StrTendril,
        system_id: StrTendril,
    ) {
        self.dom
            .append_doctype_to_document(name, public_id, system_id);
    }
    fn get_template_contents(&self, target: &Handle) -> Handle {
        self.dom.get_template_contents(target)
    }
    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        self.dom.same_node(x, y)
    }
    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.dom.set_quirks_mode(mode);
    }
    fn append_before_sibling(&self, sibling: &Handle, new_node: NodeOrText<Handle>) {
        self.spend(siblings(sibling));
        self.dom.append_before_sibling(sibling, new_node);
    }
    fn add_attrs_if_missing(&self, target: &Handle, attrs: Vec<Attribute>) {
        self.dom.add_attrs_if_missing(target, attrs);
    }
    fn remove_from_parent(&self, target: &Handle) {
        self.spend(siblings(target));
        self.dom.remove_from_parent(target);
    }
    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        self.spend(node.children.borrow().len());
        self.dom.reparent_children(node, new_parent);
    }
    fn is_mathml_annotation_xml_integration_point(&self, handle: &Handle) -> bool {
        self.dom.is_mathml_annotation_xml_integration_point(handle)
    }
    fn maybe_clone_an_option_into_selectedcontent(&self, option: &Handle) {
        self.dom.maybe_clone_an_option_into_selectedcontent(option);
    }
}
