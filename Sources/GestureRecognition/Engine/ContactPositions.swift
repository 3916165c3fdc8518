/// A position per contact id, as a dictionary `[Int: Point]` would keep
/// them, for the contacts of one gesture: kept inline (an ``InlineList``),
/// so that the engine's states allocate nothing per frame and copy as bytes.
///
/// It holds ``InlineList/capacity`` ids. When a gesture has seen more come
/// and go, a new id takes the place of the oldest one that is not among the
/// contacts touching now, as ``insert(_:keeping:)`` is told them: the
/// decoder never gives a lifted contact's id to another, so a forgotten id
/// is never asked for again.
///
///     var landings = ContactPositions()
///     landings[7] = Point(x: 30, y: 20)
///     landings[7]   // (30.0, 20.0)
///     landings[8]   // nil
///
/// - Complexity: lookups and insertions are O(n) for n ids, n being a few fingers.
struct ContactPositions: Sendable, Hashable, BitwiseCopyable {
    private var entries = InlineList<TransformState.Contact>()

    /// No positions.
    init() {}

    /// The position of each of `contacts`; of several with the same id the first counts.
    init(_ contacts: InlineList<TransformState.Contact>) {
        for index in contacts.indices where self[contacts[index].id] == nil {
            entries.append(contacts[index])
        }
    }

    /// The position kept for `id`, or nil.
    subscript(id: Int) -> Point? {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
        return entries[index].position
    }

    /// Keeps `position` for `id`, in place of the one it had, if any; when
    /// full, in place of the oldest id not among `touching`.
    mutating func set(_ position: Point, for id: Int, touching: InlineList<TransformState.Contact>) {
        if let index = entries.firstIndex(where: { $0.id == id }) {
            entries[index].position = position
            return
        }
        if entries.isFull {
            guard let lifted = entries.firstIndex(where: { entry in !touching.contains { $0.id == entry.id } }) else { return }
            entries.remove(at: lifted)
        }
        entries.append(.init(id: id, position: position))
    }

    /// How many ids have a position.
    var count: Int { entries.count }
}
