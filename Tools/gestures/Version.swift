/// The version `gestures --version` prints; raise it with each release.
let gesturesVersion = "0.1.0"
