//! A lesson's Markdown (`crate::markdown`'s small subset) as text nodes: nothing in a lesson
//! becomes markup.

use crate::markdown::{self, Block, Inline};
use leptos::prelude::*;

fn spans(items: Vec<Inline>) -> impl IntoView {
    items
        .into_iter()
        .map(|s| match s {
            Inline::Text(t) => t.into_any(),
            Inline::Code(t) => view! { <code>{t}</code> }.into_any(),
            Inline::Strong(t) => view! { <strong>{t}</strong> }.into_any(),
            Inline::Em(t) => view! { <em>{t}</em> }.into_any(),
        })
        .collect_view()
}

#[component]
pub fn Markdown(text: String) -> impl IntoView {
    let blocks = markdown::parse(&text)
        .into_iter()
        .map(|b| match b {
            Block::Para(i) => view! { <p>{spans(i)}</p> }.into_any(),
            Block::List { ordered: false, items } => {
                view! { <ul>{items.into_iter().map(|i| view! { <li>{spans(i)}</li> }).collect_view()}</ul> }.into_any()
            }
            Block::List { ordered: true, items } => {
                view! { <ol>{items.into_iter().map(|i| view! { <li>{spans(i)}</li> }).collect_view()}</ol> }.into_any()
            }
            Block::Code(c) => view! { <pre><code>{c}</code></pre> }.into_any(),
        })
        .collect_view();
    view! { <div class="md">{blocks}</div> }
}
