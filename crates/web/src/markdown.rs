//! A small, safe subset of Markdown for a lesson's story, tasks and hints: paragraphs, `-`/`*`
//! and numbered lists, fenced code blocks, and inline `code`, **strong** and *emphasis*.
//! Parsed into data (never HTML: the page renders it as text nodes, so nothing in a lesson can
//! inject markup). Anything else reads as plain text.

/// A block of text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    Para(Vec<Inline>),
    List { ordered: bool, items: Vec<Vec<Inline>> },
    Code(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    Code(String),
    Strong(String),
    Em(String),
}

/// A list item's start: ordered or not, and its text. `in_para`: inside a paragraph, where (as
/// in CommonMark) only `1.` starts a numbered list (`… holds 3 of\n4 CPUs` stays text).
fn item_start(line: &str, in_para: bool) -> Option<(bool, &str)> {
    let t = line.trim_start();
    if let Some(rest) = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")) {
        return Some((false, rest));
    }
    let (n, rest) = t.split_once(". ")?;
    (!n.is_empty() && n.len() <= 3 && n.chars().all(|c| c.is_ascii_digit()) && (!in_para || n == "1")).then_some((true, rest))
}

/// The blocks of `text`.
pub fn parse(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut para: Vec<&str> = Vec::new();
    let mut list: Option<(bool, Vec<String>)> = None;
    let mut code: Option<Vec<&str>> = None;
    let flush = |para: &mut Vec<&str>, list: &mut Option<(bool, Vec<String>)>, out: &mut Vec<Block>| {
        if !para.is_empty() {
            out.push(Block::Para(inline(&para.join(" "))));
            para.clear();
        }
        if let Some((ordered, items)) = list.take() {
            out.push(Block::List {
                ordered,
                items: items.iter().map(|i| inline(i)).collect(),
            });
        }
    };
    for line in text.lines() {
        if let Some(c) = code.as_mut() {
            if line.trim_start().starts_with("```") {
                out.push(Block::Code(c.join("\n")));
                code = None;
            } else {
                c.push(line);
            }
            continue;
        }
        if line.trim_start().starts_with("```") {
            flush(&mut para, &mut list, &mut out);
            code = Some(Vec::new());
        } else if line.trim().is_empty() {
            flush(&mut para, &mut list, &mut out);
        } else if let Some((ordered, rest)) = item_start(line, !para.is_empty()) {
            if !para.is_empty() || list.as_ref().is_some_and(|(o, _)| *o != ordered) {
                flush(&mut para, &mut list, &mut out);
            }
            list.get_or_insert((ordered, Vec::new())).1.push(rest.trim().to_string());
        } else if let Some((_, items)) = list.as_mut().filter(|_| line.starts_with(' ')) {
            // An item's continuation line.
            let last = items.last_mut().expect("a list has an item");
            last.push(' ');
            last.push_str(line.trim());
        } else {
            if list.is_some() {
                flush(&mut para, &mut list, &mut out);
            }
            para.push(line.trim());
        }
    }
    if let Some(c) = code {
        out.push(Block::Code(c.join("\n")));
    }
    flush(&mut para, &mut list, &mut out);
    out
}

/// The inline spans of one paragraph or item.
pub fn inline(s: &str) -> Vec<Inline> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        let span = match c {
            '`' => rest[1..].find('`').map(|e| (1, e, Inline::Code(rest[1..1 + e].to_string()))),
            '*' if rest.starts_with("**") => rest[2..]
                .find("**")
                .filter(|&e| e > 0)
                .map(|e| (2, e, Inline::Strong(rest[2..2 + e].to_string()))),
            '*' | '_' => rest[1..]
                .find(c)
                .filter(|&e| e > 0 && !rest[1..].starts_with(' ') && (c == '*' || !text.ends_with(|p: char| p.is_alphanumeric())))
                .map(|e| (1, e, Inline::Em(rest[1..1 + e].to_string()))),
            _ => None,
        };
        match span {
            Some((mark, len, span)) => {
                if !text.is_empty() {
                    out.push(Inline::Text(std::mem::take(&mut text)));
                }
                out.push(span);
                rest = &rest[2 * mark + len..];
            }
            None => {
                text.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    if !text.is_empty() {
        out.push(Inline::Text(text));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use Inline::*;

    #[test]
    fn paragraphs_lists_code_and_inline_spans() {
        let md = "A **taint** repels; a *toleration* lets\nit past `one` taint.\n\n- `NoSchedule`: never\n  placed;\n- second\n\n1. one\n2. two\n\n```\nkind: Pod\n```\nsnake_case_name and 2 * 3 * 4 <b>raw</b>\nholds 3 of\n4. CPUs\n";
        assert_eq!(
            parse(md),
            [
                Block::Para(vec![
                    Text("A ".into()),
                    Strong("taint".into()),
                    Text(" repels; a ".into()),
                    Em("toleration".into()),
                    Text(" lets it past ".into()),
                    Code("one".into()),
                    Text(" taint.".into())
                ]),
                Block::List {
                    ordered: false,
                    items: vec![
                        vec![Code("NoSchedule".into()), Text(": never placed;".into())],
                        vec![Text("second".into())]
                    ]
                },
                Block::List {
                    ordered: true,
                    items: vec![vec![Text("one".into())], vec![Text("two".into())]]
                },
                Block::Code("kind: Pod".into()),
                Block::Para(vec![Text("snake_case_name and 2 * 3 * 4 <b>raw</b> holds 3 of 4. CPUs".into())]),
            ]
        );
    }

    #[test]
    fn every_gallery_text_parses_without_losing_words() {
        for l in crate::lessons::GALLERY {
            let sc = schedlab_core::load::load_str(&l.text(), l.id).unwrap();
            let lesson = sc.lesson.unwrap();
            let mut texts = vec![lesson.story.clone()];
            for e in &lesson.exercises {
                texts.push(e.task.clone());
                texts.extend(e.hints.iter().cloned());
            }
            for t in texts {
                let words = |s: &str| s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).count();
                let shown: String = parse(&t)
                    .iter()
                    .map(|b| match b {
                        Block::Para(i) => spans(i),
                        Block::List { items, .. } => items.iter().map(|i| spans(i)).collect::<Vec<_>>().join(" "),
                        Block::Code(c) => c.clone(),
                    })
                    .collect::<Vec<_>>()
                    .join(" ");
                assert_eq!(words(&shown), words(&t), "{}: {t}\n--- shown:\n{shown}", l.id);
            }
        }
    }

    fn spans(i: &[Inline]) -> String {
        i.iter()
            .map(|s| match s {
                Text(t) | Code(t) | Strong(t) | Em(t) => t.as_str(),
            })
            .collect()
    }
}
