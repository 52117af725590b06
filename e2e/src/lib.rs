//! End-to-end test support for the bagsim page: a static server that mounts the built page (`dist/`) under a
//! sub-path, a chromedriver per session, headless Chromium with a fresh profile, and helpers that read the page's
//! DOM contract (ids, `data-value` attributes) through WebDriver.
//!
//! Every session ends the same way, even when the test body panics: the WebDriver session is closed, chromedriver is
//! killed (with its process group), any Chromium still using the session's private profile is killed by pid, the
//! profile is deleted, and only then is the panic resumed. A leaked headless Chromium would otherwise hold the test's
//! stdout open and hang the shell (STACK.md, pitfall 6).

mod browser;
mod dom;
mod figures;
mod server;
mod site;
mod steps;

pub use browser::*;
pub use dom::*;
pub use figures::*;
pub use server::*;
pub use site::*;
pub use steps::*;

pub use fantoccini;
