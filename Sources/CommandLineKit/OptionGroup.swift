/// Options several commands share, declared once with their help and read
/// into one value: a command lists ``options`` in its table and builds the
/// group in its parse step.
///
///     struct EngineOptions: OptionGroup {
///         static let library = Option("--library", valueName: "LIB.json", .file, help: "The templates.")
///         static var options: [OptionSpec] { [library.spec] }
///         var libraryPath: String?
///         init(_ arguments: ParsedArguments) { libraryPath = arguments[Self.library] }
///     }
public protocol OptionGroup {
    /// The group's table entries, in the order help lists them.
    static var options: [OptionSpec] { get }

    /// The group's values from parsed arguments whose table includes ``options``.
    init(_ arguments: ParsedArguments) throws(UsageError)
}
