//! Parts of the page loaded only when they are first shown: the lessons, the paper figures and their readings, the
//! load sweep, the workload views, the data grid's comparison of the schemes and the study viewer live in a second
//! wasm module (`bin/panels.rs`, mounted by `panels.rs`), which `assets/panels_loader.js` fetches the first time one
//! of them is shown. The page's own module is smaller by what only they use, and its first screen comes sooner;
//! the panels see what they need of the page through `shown.rs`. `split/` names the parts and the messages.

use super::split::Part;
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// A placeholder that the panels' module fills with `part` once it has loaded.
#[component]
pub fn LazyPanel(part: Part) -> impl IntoView {
    let (name, what) = (part.name(), part.what());
    let id = format!("lazy-{name}");
    let failed = RwSignal::new(None::<String>);
    let node = NodeRef::<leptos::html::Div>::new();
    // The panels' module mounts into the placeholder itself (an element of the document is one object to both).
    node.on_load(move |el| mount(name, el.into(), failed));
    view! {
        <div class="lazy-panel" id=id node_ref=node data-panel=name>
            {move || match failed.get() {
                None => view! { <p class="help lazy-loading">{format!("Loading {what}…")}</p> }.into_any(),
                Some(e) => {
                    view! {
                        <p class="error" role="alert">
                            {format!("Could not load {what} ({e}). Reload the page to try again.")}
                        </p>
                    }
                        .into_any()
                }
            }}
        </div>
    }
}

/// Asks `window.bagsimPanels.mount(name, element)` (`assets/panels_loader.js`); a refusal is shown in the
/// placeholder.
fn mount(name: &'static str, element: JsValue, failed: RwSignal<Option<String>>) {
    let call = || -> Result<js_sys::Promise, JsValue> {
        let window = web_sys::window().ok_or("no window")?;
        let panels = js_sys::Reflect::get(&window, &JsValue::from_str("bagsimPanels"))?;
        let mount: js_sys::Function = js_sys::Reflect::get(&panels, &JsValue::from_str("mount"))?.dyn_into()?;
        mount.call2(&panels, &JsValue::from_str(name), &element)?.dyn_into()
    };
    let said = |e: JsValue| {
        e.as_string()
            .or_else(|| e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())))
            .unwrap_or_else(|| "no reason given".into())
    };
    match call() {
        Ok(promise) => {
            let on_error = Closure::once(move |e: JsValue| failed.set(Some(said(e))));
            let _ = promise.catch(&on_error);
            on_error.forget();
        }
        Err(e) => failed.set(Some(said(e))),
    }
}
