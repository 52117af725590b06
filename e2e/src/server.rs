//! The static server: the built page under a sub-path on 127.0.0.1, 404 everywhere else.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A static file server on 127.0.0.1 that serves `root` under `base` (e.g. `/bagsim/`) and answers 404 everywhere
/// else, so that an asset URL that ignores the sub-path fails the tests as it would on GitHub Pages.
pub struct StaticServer {
    pub addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl StaticServer {
    /// Binds a free port and serves in the background on the current tokio runtime.
    pub async fn start(root: PathBuf, base: &str) -> StaticServer {
        assert!(base.starts_with('/') && base.ends_with('/'), "base path must start and end with '/': {base}");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind the static server");
        let addr = listener.local_addr().expect("server address");
        let base = base.to_string();
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else { continue };
                let (root, base) = (root.clone(), base.clone());
                tokio::spawn(async move {
                    let _ = serve_connection(stream, &root, &base).await;
                });
            }
        });
        StaticServer { addr, task }
    }

    /// `http://127.0.0.1:PORT` (no trailing slash).
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The content type of a file, by extension.
pub fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" | "csv" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The file a request path names, or None (→ 404): outside `base`, `..` segments, or not a file.
fn resolve(root: &Path, base: &str, path: &str) -> Option<PathBuf> {
    let path = path.split(['?', '#']).next().unwrap_or("");
    let rest = if path == base.trim_end_matches('/') { "" } else { path.strip_prefix(base)? };
    let rest = percent_decode(rest)?;
    let mut file = root.to_path_buf();
    for seg in rest.split('/') {
        match seg {
            "" | "." => {}
            ".." => return None,
            s if s.contains('\\') => return None,
            s => file.push(s),
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    file.is_file().then_some(file)
}

fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

async fn serve_connection(mut stream: TcpStream, root: &Path, base: &str) -> std::io::Result<()> {
    // One request per connection (Connection: close) keeps this server tiny; Chromium copes.
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buf).await?;
        if n == 0 || head.len() > 64 * 1024 {
            return Ok(());
        }
        head.extend_from_slice(&buf[..n]);
    }
    let head = String::from_utf8_lossy(&head);
    let mut parts = head.lines().next().unwrap_or("").split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let (status, ctype, body) = if method != "GET" && method != "HEAD" {
        ("405 Method Not Allowed", "text/plain; charset=utf-8", b"method not allowed\n".to_vec())
    } else {
        match resolve(root, base, target) {
            Some(file) => match tokio::fs::read(&file).await {
                Ok(bytes) => ("200 OK", content_type(&file), bytes),
                Err(_) => ("404 Not Found", "text/plain; charset=utf-8", b"not found\n".to_vec()),
            },
            None => ("404 Not Found", "text/plain; charset=utf-8", b"not found\n".to_vec()),
        }
    };
    let header = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(header.as_bytes()).await?;
    if method != "HEAD" {
        stream.write_all(&body).await?;
    }
    stream.shutdown().await
}

/// The status code and body of a plain HTTP GET (for checking the server itself, e.g. 404 outside the base).
pub async fn http_get(addr: SocketAddr, path: &str) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(addr).await.expect("connect to the static server");
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.expect("send request");
    let mut resp = Vec::new();
    s.read_to_end(&mut resp).await.expect("read response");
    let end = resp.windows(4).position(|w| w == b"\r\n\r\n").expect("a complete HTTP response head");
    let head = String::from_utf8_lossy(&resp[..end]);
    let code = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).expect("a status code");
    (code, resp[end + 4..].to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_paths_stay_under_the_base() {
        let root = std::env::temp_dir().join(format!("bagsim-e2e-resolve-{}", std::process::id()));
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("index.html"), "x").unwrap();
        std::fs::write(root.join("a.wasm"), "x").unwrap();
        assert_eq!(resolve(&root, "/b/", "/b/"), Some(root.join("index.html")));
        assert_eq!(resolve(&root, "/b/", "/b"), Some(root.join("index.html")));
        assert_eq!(resolve(&root, "/b/", "/b/?scenario=x"), Some(root.join("index.html")));
        assert_eq!(resolve(&root, "/b/", "/b/a.wasm"), Some(root.join("a.wasm")));
        assert_eq!(resolve(&root, "/b/", "/a.wasm"), None);
        assert_eq!(resolve(&root, "/b/", "/index.html"), None);
        assert_eq!(resolve(&root, "/b/", "/b/../index.html"), None);
        assert_eq!(resolve(&root, "/b/", "/b/sub/"), None);
        assert_eq!(content_type(Path::new("x.wasm")), "application/wasm");
        assert_eq!(content_type(Path::new("x.js")), "text/javascript; charset=utf-8");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
