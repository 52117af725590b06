//! The page's entry point: mounts the app (wasm32 only).

#[cfg(target_arch = "wasm32")]
fn main() {
    // The wasm's instantiation and the page's mount are two tasks, not one long one.
    leptos::prelude::set_timeout(bagsim::ui::mount, std::time::Duration::ZERO);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
