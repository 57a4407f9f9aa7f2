//! `python3 -m http.server` on a folder: the plain static file server that serves the
//! static site (web/build.sh) for tests/web.rs and examples/web_bench.rs, on a free port of
//! 127.0.0.1, killed when dropped.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct StaticServer {
    child: Child,
    /// `http://127.0.0.1:<port>/`
    pub url: String,
}

impl StaticServer {
    /// Serves `dir`; returns once the port answers.
    pub fn start(dir: &Path) -> StaticServer {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let child = Command::new("python3")
            .args([
                "-m",
                "http.server",
                "--bind",
                "127.0.0.1",
                &port.to_string(),
                "-d",
            ])
            .arg(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 -m http.server starts");
        let server = StaticServer {
            child,
            url: format!("http://127.0.0.1:{port}/"),
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "the static server did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        server
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
