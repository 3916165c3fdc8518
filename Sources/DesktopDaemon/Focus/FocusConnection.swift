/// One connection to a compositor or X server that reports the focused
/// window: what ``LiveFocus`` follows on its thread. Each protocol (X11,
/// sway and i3 IPC, Hyprland's event socket, wlr-foreign-toplevel-management
/// through libwayland, a KWin script over sd-bus) is one conformance; tests drive one through a socket pair.
public protocol FocusConnection: SendableMetatype {
    /// The source's name: `x11`, `sway`, `i3`, `hyprland`, `wlroots`, `kwin`.
    var name: String { get }
    /// The descriptor that becomes readable when the server has something to say.
    var fileDescriptor: Int32 { get }
    /// The window focused now (asked once, after connecting), or nil.
    mutating func currentFocus() throws(FocusError) -> FocusedWindow?
    /// Reads what the server sent (the descriptor is readable) and returns
    /// the focus when it changed: `.some(nil)` when nothing has the focus
    /// any more, nil when nothing changed (a title of another window).
    mutating func readChange() throws(FocusError) -> FocusedWindow??
    /// What the connection already read into its own buffer (xcb does,
    /// while it waits for a reply), asked before each wait: the focus when
    /// it changed, as ``readChange()``; never blocks.
    mutating func readBuffered() throws(FocusError) -> FocusedWindow??
    /// Closes the connection.
    mutating func close()
}

extension FocusConnection {
    /// Nothing: a connection that reads whole messages keeps no buffer.
    public mutating func readBuffered() throws(FocusError) -> FocusedWindow?? { nil }
}

/// Why a focus source could not connect or stopped: one sentence.
public struct FocusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sentence: what went wrong and where.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
