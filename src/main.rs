//! The page's entry point: mounts the app (wasm32 only).

#[cfg(target_arch = "wasm32")]
fn main() {
    bagsim::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
