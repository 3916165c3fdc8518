import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why ICU rejects a pattern, asked of the same ICU that `NSRegularExpression` uses.
///
/// On Linux, swift-corelibs-foundation reports every rejected pattern as
/// `NSCocoaErrorDomain` code 2048 ("The value is invalid.") and drops ICU's
/// error code and offset. To say why, the pattern is compiled once more with
/// ICU's own `uregex_open`, looked up at run time in the ICU library that
/// Foundation has already loaded (its symbols carry a `swift_` prefix). This
/// is diagnosis only: the engine's verdict, never a second parser's, decides
/// whether a pattern is accepted. When the symbols cannot be found, the reason
/// says only that ICU rejected the pattern.
enum ICUDiagnosis {
    private typealias Open =
        @convention(c) (
            UnsafePointer<UInt16>?, Int32, UInt32, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int32>?
        ) -> OpaquePointer?
    private typealias Close = @convention(c) (OpaquePointer?) -> Void
    private typealias ErrorName = @convention(c) (Int32) -> UnsafePointer<CChar>?

    private struct Functions: @unchecked Sendable {
        var open: Open
        var close: Close
        var errorName: ErrorName
    }

    /// The ICU entry points, or nil where they cannot be found.
    private static let functions: Functions? = {
        #if canImport(Glibc)
            func symbol(_ name: String) -> UnsafeMutableRawPointer? {
                dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_" + name)
            }
            guard let open = symbol("uregex_open"),
                let close = symbol("uregex_close"),
                let errorName = symbol("u_errorName")
            else { return nil }
            return Functions(
                open: unsafeBitCast(open, to: Open.self),
                close: unsafeBitCast(close, to: Close.self),
                errorName: unsafeBitCast(errorName, to: ErrorName.self)
            )
        #else
            return nil
        #endif
    }()

    /// ICU's error for `pattern`: its name (`U_REGEX_BAD_INTERVAL`) and the
    /// UTF-16 offset where ICU found it (-1 when it gives none), or nil when
    /// ICU accepts the pattern or cannot be asked.
    static func rejection(for pattern: String) -> (name: String, line: Int, offset: Int)? {
        guard let icu = functions else { return nil }
        let units = Array(pattern.utf16)
        // UParseError: int32 line, int32 offset, UChar preContext[16], UChar postContext[16].
        var parseError = [Int32](repeating: 0, count: 2 + 16)
        var status: Int32 = 0
        let compiled = units.withUnsafeBufferPointer { text in
            parseError.withUnsafeMutableBytes { parse in
                icu.open(text.baseAddress, Int32(units.count), 0, parse.baseAddress, &status)
            }
        }
        if let compiled { icu.close(compiled) }
        guard status > 0 else { return nil }
        let name = icu.errorName(status).map { String(cString: $0) } ?? "ICU error \(status)"
        return (name, Int(parseError[0]), Int(parseError[1]))
    }
}
