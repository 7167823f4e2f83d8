//! A YAML reader that remembers where everything is.
//!
//! The text is cut into documents at `---` lines and each piece is read with an event parser
//! into a small tree in which every node and every mapping key carries its line and column, so
//! that decoding and validation errors can point at the offending line. Cutting first means a
//! syntax error in one document does not hide the errors of the others.
//!
//! Plain scalars are typed as kubectl's YAML-to-JSON conversion types them (YAML 1.1 rules):
//! `yes`/`no`/`on`/`off` are booleans, `0755` is octal, `0x1F` hex, `1e3` a float, timestamps
//! stay strings. (go-yaml v2 also reads a lone `y` or `n` as a boolean; other YAML 1.1 readers
//! do not, and a node called `n` is too plausible to refuse, so they stay strings.) Quoted and block scalars are always strings. Merge keys (`<<`) are
//! applied; duplicate keys are errors.
//!
//! Hostile input is bounded: nesting depth, the nodes alias expansion may add ("billion
//! laughs"), and everything else is linear in the input, which the caller caps.

use crate::apimachinery::json::{self, View};
use saphyr_parser::{Event, Parser, ScalarStyle, Tag};
use serde_json::{Number, Value as Json};
use std::borrow::Cow;
use std::collections::HashMap;

mod plain;

/// Deepest nesting of mappings and sequences accepted.
pub const MAX_DEPTH: usize = 100;
/// Most nodes that alias expansion may add to one document.
pub const MAX_ALIAS_NODES: u64 = 1_000_000;

/// A 1-based line and column (columns count characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Val<'a> {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    /// Borrowed from the text unless the scalar was escaped, folded or joined.
    Str(Cow<'a, str>),
    Seq(Vec<YNode<'a>>),
    Map(Vec<Entry<'a>>),
}

/// A node with its position (its strings borrowed from the text where they can be).
#[derive(Clone, Debug, PartialEq)]
pub struct YNode<'a> {
    pub pos: Pos,
    pub val: Val<'a>,
    /// Nodes in this subtree (saturating), to bound alias expansion.
    size: u32,
    /// Whether the subtree holds an infinity or NaN (`non_finite` then finds it).
    non_finite: bool,
}

/// A mapping entry: the key (always a string) with its own position.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry<'a> {
    pub key: Cow<'a, str>,
    pub key_pos: Pos,
    pub value: YNode<'a>,
}

/// A YAML syntax (or structure) error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub pos: Pos,
    pub message: String,
}

/// One step of a path into a tree: a mapping key or a sequence index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

impl<'a> YNode<'a> {
    fn new(pos: Pos, val: Val<'a>) -> YNode<'a> {
        let (size, non_finite) = match &val {
            Val::Seq(items) => items
                .iter()
                .fold((1u32, false), |(a, nf), n| (a.saturating_add(n.size), nf || n.non_finite)),
            Val::Map(entries) => entries
                .iter()
                .fold((1u32, false), |(a, nf), e| (a.saturating_add(e.value.size), nf || e.value.non_finite)),
            Val::Float(f) => (1, !f.is_finite()),
            _ => (1, false),
        };
        YNode {
            pos,
            val,
            size,
            non_finite,
        }
    }

    /// The same tree owning its strings (for one kept after its text).
    pub fn into_owned(self) -> YNode<'static> {
        let val = match self.val {
            Val::Null => Val::Null,
            Val::Bool(b) => Val::Bool(b),
            Val::Int(i) => Val::Int(i),
            Val::UInt(u) => Val::UInt(u),
            Val::Float(f) => Val::Float(f),
            Val::Str(s) => Val::Str(Cow::Owned(s.into_owned())),
            Val::Seq(items) => Val::Seq(items.into_iter().map(YNode::into_owned).collect()),
            Val::Map(entries) => Val::Map(
                entries
                    .into_iter()
                    .map(|e| Entry {
                        key: Cow::Owned(e.key.into_owned()),
                        key_pos: e.key_pos,
                        value: e.value.into_owned(),
                    })
                    .collect(),
            ),
        };
        YNode {
            pos: self.pos,
            val,
            size: self.size,
            non_finite: self.non_finite,
        }
    }

    /// The value under `key` when this is a mapping.
    pub fn get(&self, key: &str) -> Option<&YNode<'a>> {
        match &self.val {
            Val::Map(entries) => entries.iter().find(|e| e.key == key).map(|e| &e.value),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.val {
            Val::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Where `path` points: the key of the last mapping entry found (or the item of the last
    /// sequence index); when the path leaves the tree, the deepest node reached.
    pub fn locate(&self, path: &[Seg]) -> Pos {
        self.locate_at(path, false)
    }

    /// `locate`, or with `value` the value of the last mapping entry rather than its key
    /// (when the whole path is found).
    pub fn locate_at(&self, path: &[Seg], value: bool) -> Pos {
        let mut node: &YNode = self;
        let mut at = self.pos;
        for (i, seg) in path.iter().enumerate() {
            match (seg, &node.val) {
                (Seg::Key(k), Val::Map(entries)) => match entries.iter().find(|e| e.key == *k) {
                    Some(e) => {
                        at = if value && i + 1 == path.len() { e.value.pos } else { e.key_pos };
                        node = &e.value;
                    }
                    None => return at,
                },
                (Seg::Index(i), Val::Seq(items)) => match items.get(*i) {
                    Some(n) => {
                        at = n.pos;
                        node = n;
                    }
                    None => return at,
                },
                _ => return at,
            }
        }
        at
    }

    /// The JSON value serde decodes from, as kubectl's YAML-to-JSON conversion makes it. Null
    /// mapping values are dropped (the apiserver's JSON decoding leaves such fields unset);
    /// integral floats become integers, as they do on the way through JSON. JSON has no
    /// infinities or NaN: the loader refuses documents holding them (`non_finite`); here they
    /// become `null`, as serde_json prints them.
    pub fn to_json(&self) -> Json {
        match &self.val {
            Val::Null => Json::Null,
            Val::Bool(b) => Json::Bool(*b),
            Val::Int(i) => Json::Number(Number::from(*i)),
            Val::UInt(u) => Json::Number(Number::from(*u)),
            Val::Float(f) => {
                if f.is_finite() && f.fract() == 0.0 && f.abs() < 9.0e15 {
                    Json::Number(Number::from(*f as i64))
                } else {
                    Number::from_f64(*f).map_or(Json::Null, Json::Number)
                }
            }
            Val::Str(s) => Json::String(s.to_string()),
            Val::Seq(items) => Json::Array(items.iter().map(YNode::to_json).collect()),
            Val::Map(entries) => {
                let mut m = serde_json::Map::with_capacity(entries.len());
                for e in entries {
                    if e.value.val != Val::Null {
                        m.insert(e.key.to_string(), e.value.to_json());
                    }
                }
                Json::Object(m)
            }
        }
    }

    /// The first infinity or NaN of the subtree (JSON cannot hold one), with where it is.
    pub fn non_finite(&self) -> Option<(Pos, f64)> {
        if !self.non_finite {
            return None;
        }
        match &self.val {
            Val::Float(f) if !f.is_finite() => Some((self.pos, *f)),
            Val::Seq(items) => items.iter().find_map(YNode::non_finite),
            Val::Map(entries) => entries.iter().find_map(|e| e.value.non_finite()),
            _ => None,
        }
    }
}

/// The tree reads as the JSON value `to_json` makes of it, without building that value: typed
/// objects decode straight from the tree (`json::Strict::new(&node)`), strings borrowed.
impl<'a, 't> json::Source for &'a YNode<'t> {
    type Str = &'a str;
    type Items = std::slice::Iter<'a, YNode<'t>>;
    type Entries = Present<'a, 't>;

    fn view(self) -> View<&'a YNode<'t>> {
        match &self.val {
            Val::Null => View::Null,
            Val::Bool(b) => View::Bool(*b),
            Val::Int(i) => int_view(*i),
            Val::UInt(u) => View::U64(*u),
            Val::Float(f) => {
                if f.is_finite() && f.fract() == 0.0 && f.abs() < 9.0e15 {
                    int_view(*f as i64)
                } else if f.is_finite() {
                    View::F64(*f)
                } else {
                    View::Null
                }
            }
            Val::Str(s) => View::Str(s.as_ref()),
            Val::Seq(items) => View::Array(items.iter()),
            Val::Map(entries) => View::Object(Present {
                left: entries.iter().filter(|e| !matches!(e.value.val, Val::Null)).count(),
                entries: entries.iter(),
            }),
        }
    }

    fn is_null(&self) -> bool {
        match &self.val {
            Val::Null => true,
            Val::Float(f) => !f.is_finite(),
            _ => false,
        }
    }

    fn visit_str<'de, V: serde::de::Visitor<'de>>(s: &'a str, visitor: V) -> Result<V::Value, json::Error> {
        visitor.visit_str(s)
    }
}

/// An integer as JSON holds it (serde_json's `Number::from`).
fn int_view<'a, 't>(i: i64) -> View<&'a YNode<'t>> {
    if i < 0 {
        View::I64(i)
    } else {
        View::U64(i as u64)
    }
}

/// The entries of a mapping that its JSON value has: those whose value is not null (`to_json`).
pub struct Present<'a, 't> {
    entries: std::slice::Iter<'a, Entry<'t>>,
    /// How many are left.
    left: usize,
}

impl<'a, 't> Iterator for Present<'a, 't> {
    type Item = (&'a str, &'a YNode<'t>);
    fn next(&mut self) -> Option<(&'a str, &'a YNode<'t>)> {
        for e in self.entries.by_ref() {
            if !matches!(e.value.val, Val::Null) {
                self.left -= 1;
                return Some((e.key.as_ref(), &e.value));
            }
        }
        None
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Present<'_, '_> {}

/// Test helper: the one document of a YAML text decoded as `T`, through the JSON value the
/// loader decodes from (without its defaulting and validation).
#[cfg(test)]
pub(crate) fn from_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    let (docs, errs) = read_documents(text);
    match (docs.as_slice(), errs.first()) {
        (_, Some(e)) => Err(e.message.clone()),
        ([doc], None) => crate::apimachinery::json::from_value(doc.to_json()).map_err(|e| e.to_string()),
        _ => Err(format!("{} documents, not one", docs.len())),
    }
}

/// Reads every document of a YAML (or JSON) stream. Empty documents (only comments, or
/// nothing after `---`) are skipped. Returns the documents read and the syntax errors met (at
/// most one per `---` piece).
pub fn read_documents(text: &str) -> (Vec<YNode<'_>>, Vec<SyntaxError>) {
    let mut docs = Vec::new();
    let errs = each_document(text, |d| docs.push(d));
    (docs, errs)
}

/// `read_documents`, handing each document to `f` as soon as it is read (the loader decodes
/// one while its tree is fresh in the cache, and drops it before the next is read).
pub fn each_document<'a>(text: &'a str, f: impl FnMut(YNode<'a>)) -> Vec<SyntaxError> {
    each_document_of(text, pieces(text), f)
}

/// `each_document` over the text's `pieces` (the loader counts them first: room to reserve).
pub(crate) fn each_document_of<'a>(text: &'a str, pieces: Vec<((usize, usize), usize)>, mut f: impl FnMut(YNode<'a>)) -> Vec<SyntaxError> {
    let mut errs = Vec::new();
    for (start, first_line) in pieces {
        let piece = &text[start.0..start.1];
        if let Some(read) = plain::read(piece, first_line) {
            #[cfg(test)]
            same_as_event_parser(piece, first_line, &read);
            read.into_iter().for_each(&mut f);
            continue;
        }
        let mut b = Builder::new(first_line);
        if let Err(mut e) = b.run(piece) {
            // An error met at the end of the piece belongs to its last line, not to the `---`
            // line that follows.
            let body = piece.trim_end();
            let last_line = first_line + body.matches('\n').count();
            if e.pos.line > last_line {
                let last = body.rsplit('\n').next().unwrap_or("");
                e.pos = Pos {
                    line: last_line,
                    column: last.chars().count() + 1,
                };
                if let Some(rest) = e.message.strip_prefix("yaml: line ") {
                    if let Some((_, tail)) = rest.split_once(": ") {
                        e.message = format!("yaml: line {last_line}: {tail}");
                    }
                }
            }
            errs.push(e);
        }
        b.docs.into_iter().filter(|d| d.val != Val::Null).for_each(&mut f);
    }
    errs
}

/// Panics unless the event parser reads `piece` as the fast path did (`plain`).
#[cfg(test)]
fn same_as_event_parser(piece: &str, first_line: usize, fast: &[YNode<'_>]) {
    let mut b = Builder::new(first_line);
    let got = b.run(piece);
    let head: String = piece.chars().take(400).collect();
    assert!(got.is_ok(), "the fast path read what the event parser refuses: {got:?}\n{head}");
    let slow: Vec<&YNode> = b.docs.iter().filter(|d| d.val != Val::Null).collect();
    // Debug text, as NaN is not equal to itself.
    assert!(format!("{fast:?}") == format!("{slow:?}"), "the fast path read differently:\n{head}");
}

/// Byte ranges of the `---`-separated pieces with the 1-based line each starts on. A piece
/// starts at a `---` line (or at the `%` directive lines just before it).
///
/// Each line costs a look at its first bytes: the newlines are found by `memchr`, and only a
/// separator makes the lines before it looked at again (for directives, which are rare).
pub(crate) fn pieces(text: &str) -> Vec<((usize, usize), usize)> {
    let bytes = text.as_bytes();
    let mut starts: Vec<(usize, usize)> = vec![(0, 1)];
    // (A separator on the first line starts no new piece: only those after a newline count.)
    for (n, nl) in memchr::memchr_iter(b'\n', bytes).enumerate() {
        let s = nl + 1;
        let separator = bytes.get(s..s + 3) == Some(b"---")
            && bytes.get(s + 3).is_none_or(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n'));
        if !separator {
            continue;
        }
        // Directive lines just before the separator go with its piece.
        let (mut o, mut line) = (s, n + 2);
        while o > 0 {
            let prev = memchr::memrchr(b'\n', &bytes[..o - 1]).map_or(0, |i| i + 1);
            if prev < o - 1 && bytes[prev] == b'%' {
                (o, line) = (prev, line - 1);
            } else {
                break;
            }
        }
        if o > 0 {
            starts.push((o, line));
        }
    }
    let mut out = Vec::with_capacity(starts.len());
    for (i, &(o, l)) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map(|s| s.0).unwrap_or(text.len());
        out.push(((o, end), l));
    }
    out
}

enum Frame<'a> {
    Seq {
        pos: Pos,
        anchor: usize,
        items: Vec<YNode<'a>>,
    },
    Map {
        pos: Pos,
        anchor: usize,
        entries: Vec<Entry<'a>>,
        index: HashMap<Cow<'a, str>, usize>,
        /// The key read, waiting for its value: (key, position, whether it is a merge key).
        key: Option<(Cow<'a, str>, Pos, bool)>,
        merges: Vec<YNode<'a>>,
    },
}

struct Builder<'a> {
    frames: Vec<Frame<'a>>,
    anchors: HashMap<usize, YNode<'a>>,
    alias_nodes: u64,
    docs: Vec<YNode<'a>>,
    first_line: usize,
}

fn err(pos: Pos, message: impl Into<String>) -> SyntaxError {
    SyntaxError {
        pos,
        message: message.into(),
    }
}

impl<'a> Builder<'a> {
    fn new(first_line: usize) -> Builder<'a> {
        Builder {
            frames: Vec::new(),
            anchors: HashMap::new(),
            alias_nodes: 0,
            docs: Vec::new(),
            first_line,
        }
    }

    fn pos(&self, m: &saphyr_parser::Marker) -> Pos {
        Pos {
            line: m.line() + self.first_line - 1,
            column: m.col() + 1,
        }
    }

    fn run(&mut self, piece: &'a str) -> Result<(), SyntaxError> {
        let mut parser = Parser::new_from_str(piece);
        while let Some(ev) = parser.next_event() {
            let (ev, span) = ev.map_err(|e| {
                let pos = self.pos(e.marker());
                err(pos, format!("yaml: line {}: {}", pos.line, e.info()))
            })?;
            let pos = self.pos(&span.start);
            match ev {
                Event::StreamStart | Event::StreamEnd | Event::Nothing => {}
                Event::DocumentStart(_) => {
                    self.anchors.clear();
                    self.alias_nodes = 0;
                }
                Event::DocumentEnd => {}
                Event::Scalar(text, style, anchor, tag) => {
                    let merge = style == ScalarStyle::Plain && tag.is_none() && text == "<<";
                    let raw = text.clone();
                    let val = resolve(text, style, tag.as_deref()).map_err(|m| err(pos, format!("yaml: line {}: {m}", pos.line)))?;
                    self.finish(YNode::new(pos, val), anchor, Some((raw, merge)))?;
                }
                Event::SequenceStart(anchor, _) => {
                    self.open(pos)?;
                    self.frames.push(Frame::Seq {
                        pos,
                        anchor,
                        items: Vec::new(),
                    });
                }
                Event::MappingStart(anchor, _) => {
                    self.open(pos)?;
                    self.frames.push(Frame::Map {
                        pos,
                        anchor,
                        entries: Vec::new(),
                        index: HashMap::new(),
                        key: None,
                        merges: Vec::new(),
                    });
                }
                Event::SequenceEnd => match self.frames.pop() {
                    Some(Frame::Seq { pos, anchor, items }) => self.finish(YNode::new(pos, Val::Seq(items)), anchor, None)?,
                    _ => return Err(err(pos, "yaml: unbalanced sequence end")),
                },
                Event::MappingEnd => match self.frames.pop() {
                    Some(Frame::Map {
                        pos,
                        anchor,
                        mut entries,
                        mut index,
                        merges,
                        ..
                    }) => {
                        apply_merges(&mut entries, &mut index, merges);
                        self.finish(YNode::new(pos, Val::Map(entries)), anchor, None)?;
                    }
                    _ => return Err(err(pos, "yaml: unbalanced mapping end")),
                },
                Event::Alias(id) => {
                    let Some(node) = self.anchors.get(&id) else {
                        return Err(err(pos, format!("yaml: line {}: unknown anchor referenced", pos.line)));
                    };
                    self.alias_nodes = self.alias_nodes.saturating_add(u64::from(node.size));
                    if self.alias_nodes > MAX_ALIAS_NODES {
                        return Err(err(pos, "yaml: document contains excessive aliasing"));
                    }
                    let mut node = node.clone();
                    node.pos = pos;
                    let raw = scalar_text(&node).map(|s| (Cow::Owned(s), false));
                    self.finish(node, 0, raw)?;
                }
            }
        }
        Ok(())
    }

    /// Checks that a collection may start here: not as a mapping key, not too deep.
    fn open(&self, pos: Pos) -> Result<(), SyntaxError> {
        if self.frames.len() >= MAX_DEPTH {
            return Err(err(pos, format!("yaml: exceeded max depth of {MAX_DEPTH}")));
        }
        if let Some(Frame::Map { key: None, .. }) = self.frames.last() {
            return Err(err(pos, format!("yaml: line {}: mapping keys must be strings", pos.line)));
        }
        Ok(())
    }

    /// Places a completed node: as a document root, a sequence item, a mapping key or value.
    fn finish(&mut self, node: YNode<'a>, anchor: usize, raw: Option<(Cow<'a, str>, bool)>) -> Result<(), SyntaxError> {
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
        match self.frames.last_mut() {
            None => self.docs.push(node),
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map {
                entries,
                index,
                key,
                merges,
                ..
            }) => match key.take() {
                None => {
                    let Some((k, merge)) = raw else {
                        return Err(err(node.pos, format!("yaml: line {}: mapping keys must be strings", node.pos.line)));
                    };
                    *key = Some((k, node.pos, merge));
                }
                Some((k, key_pos, true)) => {
                    let ok = match &node.val {
                        Val::Map(_) => true,
                        Val::Seq(items) => items.iter().all(|n| matches!(n.val, Val::Map(_))),
                        _ => false,
                    };
                    if !ok {
                        return Err(err(
                            key_pos,
                            format!(
                                "yaml: line {}: map merge requires map or sequence of maps as the value",
                                key_pos.line
                            ),
                        ));
                    }
                    let _ = k;
                    merges.push(node);
                }
                Some((k, key_pos, false)) => {
                    if index.contains_key(&k) {
                        return Err(err(
                            key_pos,
                            format!(
                                "yaml: unmarshal errors:\n  line {}: key {:?} already set in map",
                                key_pos.line,
                                clip(&k)
                            ),
                        ));
                    }
                    index.insert(k.clone(), entries.len());
                    entries.push(Entry {
                        key: k,
                        key_pos,
                        value: node,
                    });
                }
            },
        }
        Ok(())
    }
}

/// Adds the entries of merged mappings that the mapping does not set itself; with several
/// merged mappings the earlier ones win.
fn apply_merges<'a>(entries: &mut Vec<Entry<'a>>, index: &mut HashMap<Cow<'a, str>, usize>, merges: Vec<YNode<'a>>) {
    for m in merges {
        let sources = match m.val {
            Val::Map(es) => vec![es],
            Val::Seq(items) => items
                .into_iter()
                .filter_map(|n| match n.val {
                    Val::Map(es) => Some(es),
                    _ => None,
                })
                .collect(),
            _ => vec![],
        };
        for es in sources {
            for e in es {
                if !index.contains_key(&e.key) {
                    index.insert(e.key.clone(), entries.len());
                    entries.push(e);
                }
            }
        }
    }
}

/// The text of a scalar node used as a mapping key.
fn scalar_text(n: &YNode<'_>) -> Option<String> {
    Some(match &n.val {
        Val::Null => "null".into(),
        Val::Bool(b) => b.to_string(),
        Val::Int(i) => i.to_string(),
        Val::UInt(u) => u.to_string(),
        Val::Float(f) => f.to_string(),
        Val::Str(s) => s.to_string(),
        Val::Seq(_) | Val::Map(_) => return None,
    })
}

/// Types a scalar.
fn resolve<'a>(text: Cow<'a, str>, style: ScalarStyle, tag: Option<&Tag>) -> Result<Val<'a>, String> {
    if let Some(tag) = tag {
        if tag.is_yaml_core_schema() {
            let s = text.as_ref();
            return match tag.suffix.as_str() {
                "str" | "binary" | "timestamp" => Ok(Val::Str(text)),
                "null" => Ok(Val::Null),
                "bool" => match resolve_plain(s) {
                    v @ Val::Bool(_) => Ok(v),
                    _ => Err(format!("cannot decode !!str `{}` as a !!bool", clip(s))),
                },
                "int" => match resolve_plain(s) {
                    v @ (Val::Int(_) | Val::UInt(_)) => Ok(v),
                    _ => Err(format!("cannot decode !!str `{}` as a !!int", clip(s))),
                },
                "float" => match resolve_plain(s) {
                    Val::Int(i) => Ok(Val::Float(i as f64)),
                    Val::UInt(u) => Ok(Val::Float(u as f64)),
                    v @ Val::Float(_) => Ok(v),
                    _ => Err(format!("cannot decode !!str `{}` as a !!float", clip(s))),
                },
                other => Err(format!("unsupported tag !!{other}")),
            };
        }
        // Local tags (`!foo`) carry no meaning for Kubernetes objects: the value is read as it
        // is written.
    }
    if style != ScalarStyle::Plain {
        return Ok(Val::Str(text));
    }
    Ok(match resolve_plain(&text) {
        Val::Str(_) => Val::Str(text),
        v => v,
    })
}

fn clip(s: &str) -> String {
    if s.len() <= 64 {
        return s.to_string();
    }
    let mut end = 64;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

/// YAML 1.1 typing of a plain scalar, as go-yaml v2 (behind kubectl) does it (but `y`/`n`). Returns
/// `Val::Str` with an empty string when the scalar is a plain string (the caller keeps the text).
pub(crate) fn resolve_plain(s: &str) -> Val<'static> {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Val::Null,
        "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => return Val::Bool(true),
        "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => return Val::Bool(false),
        ".nan" | ".NaN" | ".NAN" => return Val::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => return Val::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => return Val::Float(f64::NEG_INFINITY),
        _ => {}
    }
    let first = s.as_bytes()[0];
    if !(first.is_ascii_digit() || first == b'+' || first == b'-' || first == b'.') {
        return Val::Str(Cow::Borrowed(""));
    }
    let plain: Cow<str> = if s.contains('_') {
        Cow::Owned(s.replace('_', ""))
    } else {
        Cow::Borrowed(s)
    };
    if let Some(v) = parse_int(&plain) {
        return v;
    }
    if is_yaml_float(&plain) {
        if let Ok(f) = plain.parse::<f64>() {
            return Val::Float(f);
        }
    }
    Val::Str(Cow::Borrowed(""))
}

/// An integer with Go's base prefixes (0x, 0o, 0b, leading 0 = octal); `None` when it is not
/// one or does not fit 64 bits.
fn parse_int(s: &str) -> Option<Val<'static>> {
    let (neg, body) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (radix, digits) = if let Some(d) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        (16, d)
    } else if let Some(d) = body.strip_prefix("0o").or_else(|| body.strip_prefix("0O")) {
        (8, d)
    } else if let Some(d) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
        (2, d)
    } else if body.len() > 1 && body.starts_with('0') {
        (8, &body[1..])
    } else {
        (10, body)
    };
    if digits.is_empty() || digits.len() > 70 || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let mag = u128::from_str_radix(digits, radix).ok()?;
    if neg {
        if mag <= 1u128 << 63 {
            Some(Val::Int((mag as i128).wrapping_neg() as i64))
        } else {
            None
        }
    } else if mag <= i64::MAX as u128 {
        Some(Val::Int(mag as i64))
    } else if mag <= u64::MAX as u128 {
        Some(Val::UInt(mag as u64))
    } else {
        None
    }
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
fn is_yaml_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let st = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - st
    };
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            digits(&mut i);
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> YNode<'_> {
        let (mut docs, errs) = read_documents(text);
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(docs.len(), 1);
        docs.remove(0)
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn scalar_typing() {
        let cases: &[(&str, Val)] = &[
            ("a", Val::Str("a".into())),
            ("'yes'", Val::Str("yes".into())),
            ("yes", Val::Bool(true)),
            ("Off", Val::Bool(false)),
            ("~", Val::Null),
            ("12", Val::Int(12)),
            ("-12", Val::Int(-12)),
            ("+7", Val::Int(7)),
            ("0755", Val::Int(0o755)),
            ("0x1F", Val::Int(31)),
            ("0b101", Val::Int(5)),
            ("1_000", Val::Int(1000)),
            ("08", Val::Float(8.0)),
            ("1.5", Val::Float(1.5)),
            (".5", Val::Float(0.5)),
            ("1e3", Val::Float(1000.0)),
            ("18446744073709551615", Val::UInt(u64::MAX)),
            ("2025-01-01T00:00:00Z", Val::Str("2025-01-01T00:00:00Z".into())),
            ("500m", Val::Str("500m".into())),
            ("1Gi", Val::Str("1Gi".into())),
            ("\"1\"", Val::Str("1".into())),
            ("!!str 12", Val::Str("12".into())),
            ("!!int '12'", Val::Int(12)),
        ];
        for (text, want) in cases {
            let t = format!("v: {text}\n");
            let d = one(&t);
            assert_eq!(&d.get("v").unwrap().val, want, "{text}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn positions_and_pieces() {
        let text = "# leading comment\n---\na: 1\nb:\n  c: [x, y]\n---\n# empty\n---\nd: |\n  text\n";
        let (docs, errs) = read_documents(text);
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0].pos, Pos { line: 3, column: 1 });
        assert_eq!(docs[0].locate(&[Seg::Key("b"), Seg::Key("c")]), Pos { line: 5, column: 3 });
        assert_eq!(
            docs[0].locate(&[Seg::Key("b"), Seg::Key("c"), Seg::Index(1)]),
            Pos { line: 5, column: 10 }
        );
        // A missing key points at the deepest node found.
        assert_eq!(docs[0].locate(&[Seg::Key("b"), Seg::Key("zz")]), Pos { line: 4, column: 1 });
        assert_eq!(docs[1].locate(&[Seg::Key("d")]), Pos { line: 9, column: 1 });
    }

    /// `---` lines cut the text (a `%` directive just before one goes with the piece after it);
    /// the last line may lack its newline; `---x` is content.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn pieces_cut_at_separator_lines() {
        type Cut = ((usize, usize), usize);
        let cases: [(&str, &[Cut]); 6] = [
            ("", &[((0, 0), 1)]),
            ("a: 1", &[((0, 4), 1)]),
            ("a: 1\n---", &[((0, 5), 1), ((5, 8), 2)]),
            ("a\n%YAML 1.2\n---\nb\n", &[((0, 2), 1), ((2, 18), 2)]),
            ("---x\n---\r\nz", &[((0, 5), 1), ((5, 11), 2)]),
            ("\n\n---\n", &[((0, 2), 1), ((2, 6), 3)]),
        ];
        for (text, want) in cases {
            assert_eq!(pieces(text), want, "{text:?}");
        }
    }

    /// The cut as first written: every line looked at. `pieces` must cut every text the same.
    fn pieces_line_by_line(text: &str) -> Vec<((usize, usize), usize)> {
        let mut starts: Vec<(usize, usize)> = vec![(0, 1)];
        let (mut offset, mut directives) = (0, None);
        for (i, b) in text.as_bytes().split_inclusive(|c| *c == b'\n').enumerate() {
            if b.starts_with(b"---") && b.get(3).is_none_or(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n')) {
                let (o, l) = directives.unwrap_or((offset, i + 1));
                if o > 0 {
                    starts.push((o, l));
                }
                directives = None;
            } else if b.starts_with(b"%") {
                directives.get_or_insert((offset, i + 1));
            } else {
                directives = None;
            }
            offset += b.len();
        }
        let ends = starts.iter().skip(1).map(|s| s.0).chain([text.len()]);
        starts.iter().zip(ends).map(|(&(o, l), e)| ((o, e), l)).collect()
    }

    /// Every text of up to four lines over separators, near-separators, directives, blank and
    /// content lines, with LF or CRLF, with or without a final newline.
    #[test]
    fn pieces_cut_as_the_line_by_line_reading_does() {
        let kinds = ["---", "--- a: 1", "---\t", "---x", "--", " ---", "%YAML 1.2", "%", "a: 1", "", "- b"];
        let mut texts = vec![String::new()];
        for n in 1..=4u32 {
            for mut k in 0..kinds.len().pow(n) {
                let mut lines = Vec::new();
                for _ in 0..n {
                    lines.push(kinds[k % kinds.len()]);
                    k /= kinds.len();
                }
                for eol in ["\n", "\r\n"] {
                    let body = lines.join(eol);
                    texts.push(body.clone());
                    texts.push(body + eol);
                }
            }
        }
        for t in &texts {
            assert_eq!(pieces(t), pieces_line_by_line(t), "{t:?}");
        }
        assert!(texts.len() > 60_000);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn syntax_error_in_one_piece_keeps_the_others() {
        let text = "a: 1\n---\nb: [1, 2\n---\nc: 3\n";
        let (docs, errs) = read_documents(text);
        assert_eq!(docs.len(), 2);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].pos, Pos { line: 3, column: 9 }, "{errs:?}");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn duplicate_keys_and_merges() {
        let (_, errs) = read_documents("a: 1\nb: 2\na: 3\n");
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].pos, Pos { line: 3, column: 1 });
        assert!(errs[0].message.contains("key \"a\" already set in map"), "{}", errs[0].message);
        let d = one("base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n");
        let m = d.get("m").unwrap();
        assert_eq!(m.get("x").unwrap().val, Val::Int(1));
        assert_eq!(m.get("y").unwrap().val, Val::Int(3));
    }

    /// Every YAML file of the repository, and damaged copies of it, read through the fast path
    /// for plain data where it takes them: `read_documents` checks each piece it reads against
    /// the event parser (the same tree, positions included; nothing the event parser refuses).
    #[test]
    fn fast_path_reads_as_the_event_parser() {
        fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, out);
                } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
                    out.push(p);
                }
            }
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files = Vec::new();
        for d in ["tests/conformance", "assets", "docs", "crates"] {
            walk(&root.join(d), &mut files);
        }
        files.sort();
        assert!(files.len() > 100, "{} YAML files", files.len());
        let mut rng = crate::rng::Rng::new(21);
        let noise: &[&str] = &[" ", "  ", "\n", ":", ": ", "- ", "-", "#", " #", "'", "\"", "{", "}", "[", "]", ",", "&a ", "*a", "!!str ", "|", ">", "? ", "\\", "''", "<<: ", "---\n", "...\n", "%", "\t", "é", "~", "1e3", ".5", "0x1F", "yes"];
        let (mut fast, mut all) = (0, 0);
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            for (start, first_line) in pieces(&text) {
                all += 1;
                fast += usize::from(plain::read(&text[start.0..start.1], first_line).is_some());
            }
            let _ = read_documents(&text);
            // Damaged copies of the start of the file: a piece of noise at random places.
            let head: String = text.chars().take(1500).collect();
            for _ in 0..12 {
                let mut t = head.clone();
                for _ in 0..1 + rng.below(3) {
                    let mut at = rng.below(t.len() as u64 + 1) as usize;
                    while !t.is_char_boundary(at) {
                        at -= 1;
                    }
                    let n = noise[rng.below(noise.len() as u64) as usize];
                    if rng.below(3) == 0 {
                        let mut end = (at + 1 + rng.below(4) as usize).min(t.len());
                        while !t.is_char_boundary(end) {
                            end -= 1;
                        }
                        t.replace_range(at..end, n);
                    } else {
                        t.insert_str(at, n);
                    }
                }
                let _ = read_documents(&t);
            }
        }
        // Most pieces of the repository's scenarios are plain data.
        assert!(fast * 2 > all, "{fast} of {all} pieces read by the fast path");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn limits() {
        let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 0..9 {
            let p = (b'a' + i) as char;
            let n = (b'a' + i + 1) as char;
            bomb.push_str(&format!("{n}: &{n} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"));
        }
        let (_, errs) = read_documents(&bomb);
        assert!(errs[0].message.contains("excessive aliasing"), "{errs:?}");
        let deep = "[".repeat(100_000);
        let (_, errs) = read_documents(&deep);
        assert!(
            errs[0].message.contains("max depth") || errs[0].message.contains("recursion limit"),
            "{errs:?}"
        );
        let deep_block: String = (0..200).map(|i| format!("{}k:\n", " ".repeat(i))).collect();
        let (_, errs) = read_documents(&deep_block);
        assert!(errs[0].message.contains("max depth"), "{errs:?}");
    }
}
