//! The page's second wasm module: the parts of the page loaded only when first shown (`ui/lazy.rs`). It exports
//! one function, which `assets/panels_loader.js` calls with the panel's name and the page's placeholder.

#[cfg(target_arch = "wasm32")]
mod entry {
    use wasm_bindgen::prelude::*;

    /// Mounts the panel `name` into `element`; a name it does not know is refused with a message.
    #[wasm_bindgen]
    pub fn mount_panel(name: &str, element: web_sys::HtmlElement) -> Result<(), JsValue> {
        bagsim::ui::panels::mount(name, element).map_err(|e| JsValue::from_str(&e.to_string()))
    }
}

fn main() {}
