//! `docs-html OUT`: renders README.md and docs/*.md to OUT/*.html (README as OUT/readme.html), with an id on every
//! heading (its text in lower case, spaces as '-') and links between the Markdown files pointing at their HTML
//! pages, so the page's help can link to documents a page user can read. Run by Trunk before every build.

use pulldown_cmark::{html, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use std::path::Path;

fn slug(text: &str) -> String {
    let mut s = String::new();
    for c in text.trim().chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            s.push(c);
        } else if (c == ' ' || c == '-') && !s.ends_with('-') {
            s.push('-');
        }
    }
    s.trim_matches('-').to_string()
}

/// A link to another Markdown file of the docs, pointed at its page.
fn rewrite(url: &str) -> String {
    let (path, anchor) = url.split_once('#').map_or((url, None), |(p, a)| (p, Some(a)));
    if url.contains("://") || !path.ends_with(".md") {
        return url.to_string();
    }
    let name = Path::new(path).file_stem().and_then(|s| s.to_str()).unwrap_or("index");
    let page = if name.eq_ignore_ascii_case("README") { "readme".to_string() } else { name.to_string() };
    match anchor {
        Some(a) => format!("{page}.html#{a}"),
        None => format!("{page}.html"),
    }
}

fn level(l: HeadingLevel) -> usize {
    l as usize
}

fn render(markdown: &str, title: &str) -> String {
    let mut events: Vec<Event> = Vec::new();
    let mut heading: Option<(usize, Vec<Event>, String)> = None;
    for e in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match e {
            Event::Start(Tag::Heading { level: l, .. }) => heading = Some((level(l), Vec::new(), String::new())),
            Event::End(TagEnd::Heading(_)) => {
                if let Some((n, inner, text)) = heading.take() {
                    events.push(Event::Html(CowStr::from(format!("<h{n} id=\"{}\">", slug(&text)))));
                    events.extend(inner);
                    events.push(Event::Html(CowStr::from(format!("</h{n}>\n"))));
                }
            }
            Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
                let e = Event::Start(Tag::Link { link_type, dest_url: CowStr::from(rewrite(&dest_url)), title, id });
                match heading.as_mut() {
                    Some(h) => h.1.push(e),
                    None => events.push(e),
                }
            }
            other => match heading.as_mut() {
                Some(h) => {
                    if let Event::Text(t) | Event::Code(t) = &other {
                        h.2.push_str(t);
                    }
                    h.1.push(other);
                }
                None => events.push(other),
            },
        }
    }
    let mut body = String::new();
    html::push_html(&mut body, events.into_iter());
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" \
         content=\"width=device-width, initial-scale=1\">\n<title>{title} — bagsim</title>\n<style>\nbody {{ \
         font-family: system-ui, sans-serif; max-width: 980px; margin: 24px auto; padding: 0 16px; line-height: 1.5; \
         color: #1d2330; }}\ntable {{ border-collapse: collapse; font-size: 14px; }}\nth, td {{ border: 1px solid \
         #ccd; padding: 4px 6px; vertical-align: top; }}\nth {{ background: #f0f2f6; }}\ncode, pre {{ background: \
         #f4f5f8; }}\npre {{ padding: 8px; overflow-x: auto; }}\na {{ color: #1a56a8; }}\n</style>\n</head>\n<body>\n\
         <p><a href=\"../\">← back to the simulator</a> · <a \
         href=\"readme.html\">README</a></p>\n{body}</body>\n</html>\n"
    )
}

fn main() {
    let out = std::env::args().nth(1).unwrap_or_else(|| "target/site/docs".into());
    let out = Path::new(&out);
    std::fs::create_dir_all(out).unwrap_or_else(|e| panic!("cannot create {}: {e}", out.display()));
    let mut sources = vec![(Path::new("README.md").to_path_buf(), "readme".to_string())];
    let mut docs: Vec<_> = std::fs::read_dir("docs")
        .expect("run from the project root: no docs/")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    for p in docs {
        let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or("doc").to_string();
        sources.push((p, stem));
    }
    for (path, name) in sources {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let title = text.lines().find_map(|l| l.strip_prefix("# ")).unwrap_or(&name).to_string();
        let target = out.join(format!("{name}.html"));
        std::fs::write(&target, render(&text, &title)).unwrap_or_else(|e| panic!("{}: {e}", target.display()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_get_ids_and_doc_links_point_at_pages() {
        let html = render("## Readings: the decisions\n\nsee [model](model.md#horizon) and [r](../README.md)\n", "t");
        assert!(html.contains("<h2 id=\"readings-the-decisions\">"), "{html}");
        assert!(html.contains("href=\"model.html#horizon\""), "{html}");
        assert!(html.contains("href=\"readme.html\""), "{html}");
        assert_eq!(rewrite("https://x.org/a.md"), "https://x.org/a.md");
    }
}
