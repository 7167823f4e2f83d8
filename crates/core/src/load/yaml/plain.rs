//! The fast path for plain data: most scenarios are block mappings and sequences of plain or
//! simply quoted scalars with single-line flow collections (the playground's generated
//! clusters, kubectl's output, hand-written objects). This reads such a piece straight into the
//! position tree, without the event parser, and gives up (`None`) at the first thing outside that
//! subset — anchors, aliases, tags, block and multi-line scalars, escapes, complex or quoted
//! keys, multi-line flow collections, directives, tabs, non-ASCII text, duplicate or merge keys,
//! anything malformed — which the event parser then reads as before (and reports, when it is an
//! error). So what it accepts it reads exactly as the event parser would, positions included;
//! test builds read every piece both ways and compare (`read_documents`).

use super::{resolve_plain, Entry, Pos, Val, YNode};
use std::borrow::Cow;

/// Deeper than this, the event parser reads the piece (it enforces `MAX_DEPTH`).
const MAX_FAST_DEPTH: usize = 64;

/// Longer keys are for the event parser (which refuses keys over 1024 characters).
const MAX_KEY: usize = 1000;

/// Gives up: the piece is for the event parser.
struct Bail;

type R<T> = Result<T, Bail>;

/// The documents of a `---` piece in the subset (none or one), or `None` when the piece is not
/// in it.
pub(super) fn read(piece: &str, first_line: usize) -> Option<Vec<YNode<'_>>> {
    let b = piece.as_bytes();
    // Every byte checked without an early exit, so the loop runs 16 or 32 bytes at a time.
    if !b.iter().fold(true, |ok, &c| ok & ((c == b'\n') | (c.wrapping_sub(b' ') <= b'~' - b' '))) {
        return None;
    }
    let mut p = P {
        b,
        s: piece,
        i: 0,
        line: first_line,
        line_start: 0,
        depth: 0,
    };
    p.document().ok()
}

struct P<'a> {
    b: &'a [u8],
    s: &'a str,
    i: usize,
    /// The current line (1-based, in the whole text) and the offset it starts at.
    line: usize,
    line_start: usize,
    depth: usize,
}

fn is_key_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'/' | b'-')
}

impl<'a> P<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn at(&self, k: usize) -> Option<u8> {
        self.b.get(self.i + k).copied()
    }

    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            column: self.i - self.line_start + 1,
        }
    }

    fn column(&self) -> usize {
        self.i - self.line_start
    }

    fn skip_spaces(&mut self) {
        while self.peek() == Some(b' ') {
            self.i += 1;
        }
    }

    /// Past the end of the current line (at the start of the next one, or at the end).
    fn next_line_start(&mut self) {
        match self.b[self.i..].iter().position(|&c| c == b'\n') {
            Some(k) => {
                self.i += k + 1;
                self.line += 1;
                self.line_start = self.i;
            }
            None => self.i = self.b.len(),
        }
    }

    /// From a line start: skips blank and comment-only lines; returns the indent of the next
    /// line with content (the cursor at its first character), `None` at the end.
    fn next_content(&mut self) -> Option<usize> {
        loop {
            if self.i >= self.b.len() {
                return None;
            }
            self.skip_spaces();
            match self.peek() {
                None => return None,
                Some(b'\n') | Some(b'#') => self.next_line_start(),
                Some(_) => return Some(self.column()),
            }
        }
    }

    /// After a value: only spaces and a comment may follow on its line; then the next line.
    fn end_of_line(&mut self) -> R<()> {
        let before = self.i;
        self.skip_spaces();
        match self.peek() {
            None | Some(b'\n') => {}
            Some(b'#') if self.i > before => {}
            _ => return Err(Bail),
        }
        self.next_line_start();
        Ok(())
    }

    fn document(&mut self) -> R<Vec<YNode<'a>>> {
        if self.b.starts_with(b"---") {
            self.i = 3;
            self.end_of_line()?;
        }
        let Some(n) = self.next_content() else {
            return Ok(Vec::new());
        };
        let root = match self.peek() {
            Some(b'-') if self.is_entry() => self.block_sequence(n, false)?,
            _ => self.block_mapping(n)?,
        };
        if self.next_content().is_some() {
            return Err(Bail);
        }
        Ok(vec![root])
    }

    /// Whether the cursor is at a block sequence entry (`- ` or `-` at the end of the line).
    fn is_entry(&self) -> bool {
        self.peek() == Some(b'-') && matches!(self.at(1), Some(b' ') | Some(b'\n') | None)
    }

    /// The length of a simple key at the cursor (`name:` followed by a space or the end of the
    /// line), if there is one.
    fn key_len(&self) -> Option<usize> {
        let rest = &self.b[self.i..];
        let len = rest.iter().position(|&c| !is_key_char(c)).unwrap_or(rest.len());
        // The event parser refuses a simple key longer than 1024 characters.
        if len == 0 || len > MAX_KEY || rest[0] == b'-' {
            return None;
        }
        (rest.get(len) == Some(&b':') && matches!(rest.get(len + 1), Some(b' ') | Some(b'\n') | None)).then_some(len)
    }

    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_FAST_DEPTH {
            return Err(Bail);
        }
        Ok(())
    }

    /// A block mapping whose keys are at column `n` (the cursor at its first key).
    fn block_mapping(&mut self, n: usize) -> R<YNode<'a>> {
        self.enter()?;
        let start = self.pos();
        let mut entries: Vec<Entry> = Vec::new();
        loop {
            let key_pos = self.pos();
            let len = self.key_len().ok_or(Bail)?;
            let key = &self.s[self.i..self.i + len];
            if entries.iter().any(|e| e.key == key) {
                return Err(Bail);
            }
            self.i += len + 1;
            let value = self.value_of_key(n)?;
            entries.push(Entry {
                key: Cow::Borrowed(key),
                key_pos,
                value,
            });
            // The cursor is at the next line with content, or at the end.
            if self.i >= self.b.len() {
                break;
            }
            let m = self.column();
            if m < n {
                break;
            }
            if m > n || self.is_entry() {
                return Err(Bail);
            }
        }
        self.depth -= 1;
        Ok(YNode::new(start, Val::Map(entries)))
    }

    /// The value after `key:` of a mapping at column `n`; leaves the cursor at the next line
    /// with content (or the end).
    fn value_of_key(&mut self, n: usize) -> R<YNode<'a>> {
        self.skip_spaces();
        match self.peek() {
            None | Some(b'\n') | Some(b'#') => {
                if self.peek() == Some(b'#') && self.b[self.i - 1] != b' ' {
                    return Err(Bail);
                }
                self.next_line_start();
                let m = self.next_content().ok_or(Bail)?;
                if m > n {
                    if self.is_entry() {
                        self.block_sequence(m, false)
                    } else {
                        self.block_mapping(m)
                    }
                } else if m == n && self.is_entry() {
                    self.block_sequence(n, true)
                } else {
                    // An empty value.
                    Err(Bail)
                }
            }
            Some(_) => {
                let v = self.inline_value()?;
                self.next_content();
                Ok(v)
            }
        }
    }

    /// A block sequence whose entries are at column `n` (the cursor at its first `-`); an
    /// indentless one (the value of a key at the same column) ends at a line that is not an
    /// entry.
    fn block_sequence(&mut self, n: usize, indentless: bool) -> R<YNode<'a>> {
        self.enter()?;
        // The event parser places a sequence at its first `-`, an indentless one at its first
        // item.
        let mut start = self.pos();
        let mut items = Vec::new();
        loop {
            if !self.is_entry() || self.at(1) != Some(b' ') {
                return Err(Bail);
            }
            self.i += 1;
            self.skip_spaces();
            if indentless && items.is_empty() {
                start = self.pos();
            }
            match self.peek() {
                None | Some(b'\n') | Some(b'#') => return Err(Bail),
                _ => {}
            }
            let c = self.column();
            let item = if self.key_len().is_some() {
                self.block_mapping(c)?
            } else if self.is_entry() {
                return Err(Bail);
            } else {
                let v = self.inline_value()?;
                self.next_content();
                v
            };
            items.push(item);
            if self.i >= self.b.len() {
                break;
            }
            let m = self.column();
            if m < n {
                break;
            }
            if m > n {
                return Err(Bail);
            }
            if !self.is_entry() {
                if indentless {
                    break;
                }
                return Err(Bail);
            }
        }
        self.depth -= 1;
        Ok(YNode::new(start, Val::Seq(items)))
    }

    /// A value on the rest of the line (a flow collection, a quoted or a plain scalar), then
    /// the end of the line.
    fn inline_value(&mut self) -> R<YNode<'a>> {
        let v = match self.peek() {
            Some(b'{') | Some(b'[') => self.flow()?,
            Some(b'"') | Some(b'\'') => self.quoted()?,
            _ => self.block_plain()?,
        };
        self.end_of_line()?;
        Ok(v)
    }

    /// Whether a plain scalar may start at the cursor.
    fn plain_start(&self) -> bool {
        match self.peek() {
            None => false,
            Some(b'-') => !matches!(self.at(1), None | Some(b' ') | Some(b'\n')),
            Some(c) => !matches!(
                c,
                b'?' | b':' | b',' | b'[' | b']' | b'{' | b'}' | b'#' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\'' | b'"' | b'%' | b'@' | b'`' | b' ' | b'\n'
            ),
        }
    }

    fn scalar(&self, pos: Pos, text: &'a str) -> YNode<'a> {
        let val = match resolve_plain(text) {
            Val::Str(_) => Val::Str(Cow::Borrowed(text)),
            v => v,
        };
        YNode::new(pos, val)
    }

    /// A plain scalar in block context: to the end of the line or a comment.
    fn block_plain(&mut self) -> R<YNode<'a>> {
        if !self.plain_start() {
            return Err(Bail);
        }
        let pos = self.pos();
        let st = self.i;
        let rest = &self.b[st..];
        let mut end = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
        if let Some(k) = rest[..end].windows(2).position(|w| w == b" #") {
            end = k;
        }
        let text = self.s[st..st + end].trim_end_matches(' ');
        if text.ends_with(':') || text.contains(": ") {
            return Err(Bail);
        }
        self.i = st + text.len();
        Ok(self.scalar(pos, text))
    }

    /// A quoted scalar on one line, without escapes.
    fn quoted(&mut self) -> R<YNode<'a>> {
        let q = self.peek().ok_or(Bail)?;
        let pos = self.pos();
        let st = self.i + 1;
        let rest = &self.b[st..];
        let len = rest.iter().position(|&c| c == q || c == b'\n' || c == b'\\').ok_or(Bail)?;
        if rest[len] != q || (q == b'\'' && rest.get(len + 1) == Some(&b'\'')) {
            return Err(Bail);
        }
        let text = &self.s[st..st + len];
        self.i = st + len + 1;
        Ok(YNode::new(pos, Val::Str(Cow::Borrowed(text))))
    }

    /// A flow collection on one line.
    fn flow(&mut self) -> R<YNode<'a>> {
        self.enter()?;
        let pos = self.pos();
        let close = if self.peek() == Some(b'{') { b'}' } else { b']' };
        self.i += 1;
        self.skip_spaces();
        let mut entries: Vec<Entry> = Vec::new();
        let mut items = Vec::new();
        if self.peek() != Some(close) {
            loop {
                if close == b'}' {
                    let key_pos = self.pos();
                    let len = self.key_len().ok_or(Bail)?;
                    let key = &self.s[self.i..self.i + len];
                    if self.at(len + 1) != Some(b' ') || entries.iter().any(|e| e.key == key) {
                        return Err(Bail);
                    }
                    self.i += len + 2;
                    self.skip_spaces();
                    let value = self.flow_value()?;
                    entries.push(Entry {
                        key: Cow::Borrowed(key),
                        key_pos,
                        value,
                    });
                } else {
                    items.push(self.flow_value()?);
                }
                self.skip_spaces();
                match self.peek() {
                    Some(b',') => {
                        self.i += 1;
                        self.skip_spaces();
                        if self.peek() == Some(close) {
                            return Err(Bail);
                        }
                    }
                    Some(c) if c == close => break,
                    _ => return Err(Bail),
                }
            }
        }
        self.i += 1;
        self.depth -= 1;
        let val = if close == b'}' { Val::Map(entries) } else { Val::Seq(items) };
        Ok(YNode::new(pos, val))
    }

    /// A value inside a flow collection.
    fn flow_value(&mut self) -> R<YNode<'a>> {
        match self.peek() {
            Some(b'{') | Some(b'[') => self.flow(),
            Some(b'"') | Some(b'\'') => self.quoted(),
            _ => {
                if !self.plain_start() {
                    return Err(Bail);
                }
                let pos = self.pos();
                let st = self.i;
                let rest = &self.b[st..];
                let end = rest
                    .iter()
                    .position(|&c| matches!(c, b',' | b'[' | b']' | b'{' | b'}' | b'\n' | b'#' | b':'))
                    .unwrap_or(rest.len());
                if !matches!(rest.get(end), Some(b',') | Some(b']') | Some(b'}')) {
                    return Err(Bail);
                }
                let text = self.s[st..st + end].trim_end_matches(' ');
                self.i = st + text.len();
                Ok(self.scalar(pos, text))
            }
        }
    }
}
