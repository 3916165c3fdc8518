#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The translation, scale and rotation of a group of contacts since the
/// gesture began: the state behind pinch, rotate and multi-finger pan.
///
/// Feed it every frame's contacts with ``update(_:)``. Each update compares the
/// contacts present both before and after it (matched by `id`), so a finger
/// that joins or leaves re-bases the state: that update contributes no
/// movement, and the totals continue from where they were.
///
/// Conventions (y grows downwards, positions in millimetres):
/// - **Translation**: the movement of the centroid (mean position) of the
///   contacts, summed over updates; with no joins or leaves it is the current
///   centroid minus the starting one.
/// - **Scale**: the spread of the contacts relative to the start, where the
///   spread is their mean distance from their centroid. With two contacts it is
///   libinput's `current distance / starting distance`; with 3-5 it uses every
///   finger, so one finger moving alone changes it only a little.
/// - **Rotation**: in degrees, clockwise positive as seen on screen (as
///   libinput reports it), accumulated across updates so that several turns
///   give 720, 1080, ... without jumps at +-180. Each update's angle is the
///   circular mean of every contact's wrapped angle change about the centroid,
///   weighted by its distances from the centroid (the least-squares rotation):
///   a finger near the centroid, whose angle is mostly noise, counts little.
///   Per-update rotations must stay under 180 degrees to be seen the right way.
///
/// Degenerate input gives defined, bounded values, never NaN: contacts with
/// NaN or infinite coordinates are ignored; with fewer than two contacts in
/// common the update changes neither scale nor rotation (a single contact
/// still translates). Contacts whose spread is under
/// ``minimumSpreadMillimeters`` are no pinch: such a frame is skipped for
/// scale and rotation, and the next frame with a real spread has its scale
/// compared with the last one before it (its angle, undefined through the
/// gap, is not), so fingers that jump onto each other and apart again cannot
/// ratchet the scale. The scale stays in ``scaleRange``.
///
///     var state = TransformState(contacts: [
///         .init(id: 1, position: Point(x: 40, y: 30)),
///         .init(id: 2, position: Point(x: 60, y: 30)),
///     ])
///     // The right finger moves down, the left one up: a quarter turn clockwise
///     // with the fingers twice as far apart, centroid unchanged.
///     let delta = state.update([
///         .init(id: 1, position: Point(x: 50, y: 10)),
///         .init(id: 2, position: Point(x: 50, y: 50)),
///     ])
///     delta.scaleRatio          // 2.0
///     delta.rotationDegrees     // 90.0
///     state.translationMillimeters  // (0.0, 0.0)
///
/// - Complexity: ``update(_:)`` is O(n²) for n contacts (a few fingers); it
///   allocates nothing. A state follows at most ``maximumContacts`` contacts.
public struct TransformState: Hashable, Sendable {
    /// One touching finger: a tracking id and a position in millimetres.
    public struct Contact: Hashable, Sendable, Codable, BitwiseCopyable {
        /// Identifies the contact across updates (a tracking id or slot).
        public var id: Int
        /// Where it touches, in millimetres (y grows downwards).
        public var position: Point

        /// A contact `id` at `position` in millimetres.
        public init(id: Int, position: Point) {
            self.id = id
            self.position = position
        }
    }

    /// What one update changed.
    public struct Delta: Hashable, Sendable {
        /// The movement of the centroid, in millimetres.
        public var translationMillimeters: Point
        /// The new spread divided by the old one (1 when unchanged).
        public var scaleRatio: Double
        /// The rotation in degrees, clockwise positive on screen, in (-180, 180].
        public var rotationDegrees: Double

        /// A change of `translationMillimeters`, `scaleRatio` and `rotationDegrees`.
        public init(translationMillimeters: Point, scaleRatio: Double, rotationDegrees: Double) {
            self.translationMillimeters = translationMillimeters
            self.scaleRatio = scaleRatio
            self.rotationDegrees = rotationDegrees
        }

        /// No change: no movement, a ratio of 1, no rotation.
        public static let identity = Delta(translationMillimeters: .zero, scaleRatio: 1, rotationDegrees: 0)
    }

    /// Below this spread (mean distance from the centroid), in millimetres,
    /// contacts are no pinch and a frame changes neither scale nor rotation:
    /// 2 mm, two contacts whose centres are 4 mm apart, closer than two
    /// fingertips can be (so only noise, a palm or a broken device gets there).
    public static let minimumSpreadMillimeters = 2.0 /* mm */

    /// The scales ``scale`` is kept within: 0.01 to 100, a hundred times
    /// narrower or wider than the start, more than any surface allows
    /// (100 x 2 mm is 20 cm).
    public static let scaleRange: ClosedRange<Double> = 0.01...100

    /// The most contacts a state follows, 8: of more, those with the lowest
    /// ids (a gesture has at most ``GestureEngine/maximumFingers``). Keeping
    /// them inline means an update allocates nothing.
    public static var maximumContacts: Int { InlineList<Contact>.capacity }

    /// The movement of the centroid since the start, in millimetres.
    public private(set) var translationMillimeters: Point = .zero
    /// The spread relative to the start (1 at the start, 2 when twice as far apart).
    public private(set) var scale: Double = 1
    /// The rotation since the start in degrees, clockwise positive, accumulated
    /// over any number of turns.
    public private(set) var rotationDegrees: Double = 0
    /// What the latest update changed (``Delta/identity`` before any update).
    public private(set) var lastDelta: Delta = .identity
    /// The current contacts with finite positions, one per id, sorted by id.
    private(set) var current: InlineList<Contact>
    /// The contacts scale and rotation are measured from: those of the
    /// latest frame whose spread was not under ``minimumSpreadMillimeters``
    /// (or of the latest frame that re-based the state).
    private var reference: InlineList<Contact>
    /// Whether frames too close together for a pinch came since ``reference``:
    /// the angle through such a gap is undefined, so only the scale is measured.
    private var referenceIsStale = false

    /// A state that starts from `contacts` (or from the first update's
    /// contacts when empty), with no translation, scale 1 and no rotation.
    public init(contacts: [Contact] = []) {
        self.init(normalized: Self.normalized(contacts))
    }

    /// A state that starts from `contacts`, already normalised.
    init(normalized contacts: InlineList<Contact>) {
        current = contacts
        reference = contacts
    }

    /// The current contacts with finite positions, one per id, sorted by id.
    public var contacts: [Contact] { current.array }

    /// The centroid (mean position) of the current contacts, or `nil` when there are none.
    public var centroid: Point? {
        current.isEmpty ? nil : current.withElements { contacts in Self.centroid(count: contacts.count) { contacts[$0].position } }
    }

    /// The mean distance of the current contacts from their centroid, in
    /// millimetres (0 with fewer than two contacts).
    public var spreadMillimeters: Double {
        guard current.count >= 2 else { return 0 }
        return current.withElements { contacts in
            let center = Self.centroid(count: contacts.count) { contacts[$0].position }
            return Self.spread(count: contacts.count, about: center) { contacts[$0].position }
        }
    }

    /// Moves to the contacts of a new frame and returns what changed.
    ///
    /// Only contacts present both before and after (by id) are compared; a
    /// contact that joins or leaves changes nothing by itself. Contacts with a
    /// non-finite position are ignored, and of several with the same id the
    /// first counts.
    @discardableResult
    public mutating func update(_ newContacts: [Contact]) -> Delta {
        update(normalized: Self.normalized(newContacts), if: { _, _ in true })!
    }

    /// Moves to `next` (normalised) as ``update(_:)`` does, if `accept`
    /// agrees: it is given the change and `next`, and when it returns false
    /// nothing changes and the result is nil.
    mutating func update(
        normalized next: InlineList<Contact>,
        if accept: (Delta, InlineList<Contact>) -> Bool
    ) -> Delta? {
        var delta = Delta.identity
        Self.withSharedPositions(from: current, to: next) { before, after in
            guard !before.isEmpty else { return }
            let translation = Self.centroid(of: after) - Self.centroid(of: before)
            if translation.isFinite { delta.translationMillimeters = translation }
        }
        let shape = Self.shapeChange(from: reference, to: next)
        if case .measured(let ratio, let degrees) = shape {
            delta.scaleRatio = ratio
            delta.rotationDegrees = referenceIsStale ? 0 : degrees
        }
        guard accept(delta, next) else { return nil }
        switch shape {
        case .measured, .rebase:
            reference = next
            referenceIsStale = false
        case .noPinch:
            referenceIsStale = true
        }
        current = next
        lastDelta = delta
        let translation = translationMillimeters + delta.translationMillimeters
        if translation.isFinite { translationMillimeters = translation }
        let newScale = scale * delta.scaleRatio
        if newScale.isFinite, newScale > 0 { scale = min(max(newScale, Self.scaleRange.lowerBound), Self.scaleRange.upperBound) }
        let rotation = rotationDegrees + delta.rotationDegrees
        if rotation.isFinite { rotationDegrees = rotation }
        return delta
    }

    /// Moves to `newContacts` without counting any change: the totals stay
    /// as they are and the next ``update(_:)`` compares with these contacts.
    /// For positions that are not motion: a finger replaced by another, a
    /// contact the device made jump.
    ///
    ///     var state = TransformState(contacts: [.init(id: 1, position: Point(x: 10, y: 10))])
    ///     state.rebase([.init(id: 1, position: Point(x: 40, y: 10))])
    ///     state.translationMillimeters   // (0.0, 0.0)
    public mutating func rebase(_ newContacts: [Contact]) {
        rebase(normalized: Self.normalized(newContacts))
    }

    /// Moves to `contacts` (normalised) without counting any change, as ``rebase(_:)``.
    mutating func rebase(normalized contacts: InlineList<Contact>) {
        current = contacts
        reference = contacts
        referenceIsStale = false
        lastDelta = .identity
    }

    /// Calls `body` with the positions of the contacts present in both
    /// frames, before and after, in `next`'s order; both frames are
    /// normalised (sorted by id, one contact per id).
    private static func withSharedPositions(
        from previous: InlineList<Contact>, to next: InlineList<Contact>,
        _ body: (_ before: UnsafeBufferPointer<Point>, _ after: UnsafeBufferPointer<Point>) -> Void
    ) {
        previous.withElements { previous in
            next.withElements { next in
                withUnsafeTemporaryAllocation(of: Point.self, capacity: 2 * next.count + 1) { buffer in
                    let before = buffer.baseAddress!, after = before + next.count
                    var shared = 0
                    var old = 0
                    for contact in next {
                        while old < previous.count && previous[old].id < contact.id { old += 1 }
                        guard old < previous.count && previous[old].id == contact.id else { continue }
                        (before + shared).initialize(to: previous[old].position)
                        (after + shared).initialize(to: contact.position)
                        shared += 1
                    }
                    body(UnsafeBufferPointer(start: before, count: shared), UnsafeBufferPointer(start: after, count: shared))
                }
            }
        }
    }

    /// How the shape changed from the reference frame to the current one.
    private enum ShapeChange {
        /// The spread changed by `ratio` and the contacts turned by `degrees`.
        case measured(ratio: Double, degrees: Double)
        /// Nothing to compare (fewer than two shared contacts, or a reference
        /// without a real spread): the current frame becomes the reference.
        case rebase
        /// The current contacts are too close together to be a pinch: the
        /// reference stays for the next frame.
        case noPinch
    }

    /// The change of spread and angle, from the contacts the frames share.
    private static func shapeChange(from reference: InlineList<Contact>, to next: InlineList<Contact>) -> ShapeChange {
        var change = ShapeChange.rebase
        withSharedPositions(from: reference, to: next) { before, after in
            guard before.count >= 2 else { return }
            let centroidBefore = centroid(of: before)
            let centroidAfter = centroid(of: after)
            let spreadBefore = spread(count: before.count, about: centroidBefore) { before[$0] }
            let spreadAfter = spread(count: after.count, about: centroidAfter) { after[$0] }
            guard spreadBefore.isFinite, spreadBefore >= minimumSpreadMillimeters else { return }
            guard spreadAfter.isFinite, spreadAfter >= minimumSpreadMillimeters else { change = .noPinch; return }
            let ratio = spreadAfter / spreadBefore

            // Sum of r_before * r_after * (sin, cos) of each contact's angle change:
            // its argument is the weighted circular mean of the changes. In y-down
            // coordinates a positive cross product is a clockwise turn on screen.
            var sine = 0.0, cosine = 0.0
            for index in 0..<before.count {
                let a = before[index] - centroidBefore, b = after[index] - centroidAfter
                sine += a.x * b.y - a.y * b.x
                cosine += a.x * b.x + a.y * b.y
            }
            let degrees = atan2(sine, cosine) * 180 / Double.pi
            change = .measured(ratio: ratio.isFinite ? ratio : 1, degrees: degrees.isFinite ? degrees : 0)
        }
        return change
    }

    /// `contacts` without non-finite positions or repeated ids (the first
    /// wins), sorted by id; of more than ``maximumContacts``, those with the lowest ids.
    static func normalized(_ contacts: [Contact]) -> InlineList<Contact> {
        normalized(count: contacts.count) { contacts[$0] }
    }

    /// `contacts` normalised, as ``normalized(_:)-(Array)``: as they are
    /// when already normalised (a pad's slots usually give ids in order).
    static func normalized(_ contacts: InlineList<Contact>) -> InlineList<Contact> {
        if isNormalized(contacts) { return contacts }
        return contacts.withElements { contacts in normalized(count: contacts.count) { contacts[$0] } }
    }

    /// Whether `contacts` are normalised already: every position finite,
    /// ids strictly increasing (so sorted and unique).
    ///
    /// - Complexity: O(n) for n contacts.
    static func isNormalized(_ contacts: InlineList<Contact>) -> Bool {
        contacts.withElements { contacts in
            var previousID = Int.min
            for contact in contacts {
                guard contact.position.isFinite, contact.id > previousID else { return false }
                previousID = contact.id
            }
            return true
        }
    }

    /// The `count` contacts `contact(i)` gives, normalised.
    ///
    /// - Complexity: O(n²) for n contacts, n being a few fingers.
    private static func normalized(count: Int, _ contact: (Int) -> Contact) -> InlineList<Contact> {
        let capacity = InlineList<Contact>.capacity
        return withUnsafeTemporaryAllocation(of: Contact.self, capacity: capacity) { buffer in
            let sorted = buffer.baseAddress!
            var kept = 0
            for index in 0..<count {
                let contact = contact(index)
                guard contact.position.isFinite else { continue }
                var position = 0
                while position < kept && sorted[position].id < contact.id { position += 1 }
                if position < kept && sorted[position].id == contact.id { continue }  // the first of an id counts
                if kept == capacity {
                    // Keep the lowest ids: this one replaces the highest, if lower.
                    guard position < kept else { continue }
                    kept -= 1
                }
                // Insertion into place: ids are unique, so the order is the sorted one.
                var move = kept
                while move > position {
                    (sorted + move).initialize(to: sorted[move - 1])
                    move -= 1
                }
                (sorted + position).initialize(to: contact)
                kept += 1
            }
            var result = InlineList<Contact>()
            for index in 0..<kept { result.append(sorted[index]) }
            return result
        }
    }

    /// The mean of `points`, which must not be empty.
    static func centroid(of points: UnsafeBufferPointer<Point>) -> Point {
        centroid(count: points.count) { points[$0] }
    }

    /// The mean of the `count` points `point(i)` gives; `count` must not be 0.
    static func centroid(count: Int, _ point: (Int) -> Point) -> Point {
        var sum = Point.zero
        for index in 0..<count { sum = sum + point(index) }
        let mean = sum * (1 / Double(count))
        if mean.isFinite { return mean }
        // The sum overflowed: average the scaled-down points instead.
        var scaled = Point.zero
        for index in 0..<count { scaled = scaled + point(index) * (1 / Double(count)) }
        return scaled
    }

    /// The mean distance from `center` of the `count` points `point(i)` gives.
    static func spread(count: Int, about center: Point, _ point: (Int) -> Point) -> Double {
        var total = 0.0
        for index in 0..<count { total += point(index).distance(to: center) }
        return total / Double(count)
    }
}

extension TransformState.Contact: InlineStorable {
    static var placeholder: TransformState.Contact { .init(id: 0, position: .zero) }
}
