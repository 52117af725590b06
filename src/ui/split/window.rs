//! The window's plumbing under the messages between the page's two modules: a value written into a property of the
//! window, an event fired on it, and a listener that lives as long as the page.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// Writes `value` (data `serde_wasm_bindgen` wrote, a `File`) into the window's property `key`, then fires `event`
/// on the window; the listeners of both modules run before this returns.
pub fn post_value(key: &str, event: &str, value: &JsValue) {
    let Some(window) = web_sys::window() else { return };
    let _ = js_sys::Reflect::set(&window, &JsValue::from_str(key), value);
    if let Ok(e) = web_sys::Event::new(event) {
        let _ = window.dispatch_event(&e);
    }
}

/// The window's property `key`, whatever it holds (undefined if nothing).
pub fn read_value(key: &str) -> JsValue {
    web_sys::window().and_then(|w| js_sys::Reflect::get(&w, &JsValue::from_str(key)).ok()).unwrap_or_default()
}

/// Calls `f` after every `event` fired on the window, for the page's life.
pub fn listen(event: &str, f: impl FnMut() + 'static) {
    let f = Closure::<dyn FnMut()>::new(f);
    if let Some(window) = web_sys::window() {
        let _ = window.add_event_listener_with_callback(event, f.as_ref().unchecked_ref());
    }
    f.forget();
}
