//! Downloads of text and data URLs from the page.

use wasm_bindgen::JsCast;

/// Offers `text` as a file named `name`.
pub fn text(name: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&text.into());
    let props = web_sys::BlobPropertyBag::new();
    props.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &props) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    url_download(name, &url);
    let _ = web_sys::Url::revoke_object_url(&url);
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
