//! The page (Leptos components and charts).
