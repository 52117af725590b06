//! Downloads of text and data URLs from the page.

use wasm_bindgen::JsCast;

/// Offers `text` as a file named `name`. The object URL (gloo-file's `ObjectUrl`) is revoked when it is dropped,
/// after the click has started the download.
pub fn text(name: &str, mime: &str, text: &str) {
    let blob = gloo_file::Blob::new_with_options(text, Some(mime));
    let url = gloo_file::ObjectUrl::from(blob);
    url_download(name, &url);
}

/// Offers a URL (object or data URL) as a file named `name`.
pub fn url_download(name: &str, url: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let Ok(a) = doc.create_element("a") else { return };
    let a: web_sys::HtmlAnchorElement = a.unchecked_into();
    a.set_href(url);
    a.set_download(name);
    a.click();
}
