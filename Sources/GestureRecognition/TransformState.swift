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
/// Degenerate input gives defined, finite values, never NaN: contacts with
/// NaN or infinite coordinates are ignored; with fewer than two contacts in
/// common, or a spread under ``minimumSpreadMillimeters`` before or after an
/// update, the update changes neither scale nor rotation (a single contact
/// still translates).
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
/// - Complexity: ``update(_:)`` is O(n log n) for n contacts.
public struct TransformState: Hashable, Sendable {
    /// One touching finger: a tracking id and a position in millimetres.
    public struct Contact: Hashable, Sendable, Codable {
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

    /// Below this spread, in millimetres, contacts count as coincident and an
    /// update changes neither scale nor rotation (0.01 mm, far under the
    /// resolution of any touchpad).
    public static let minimumSpreadMillimeters = 0.01 /* mm */

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
    public private(set) var contacts: [Contact]

    /// A state that starts from `contacts` (or from the first update's
    /// contacts when empty), with no translation, scale 1 and no rotation.
    public init(contacts: [Contact] = []) {
        self.contacts = Self.normalized(contacts)
    }

    /// The centroid (mean position) of the current contacts, or `nil` when there are none.
    public var centroid: Point? {
        contacts.isEmpty ? nil : Self.centroid(of: contacts.map(\.position))
    }

    /// The mean distance of the current contacts from their centroid, in
    /// millimetres (0 with fewer than two contacts).
    public var spreadMillimeters: Double {
        let points = contacts.map(\.position)
        guard points.count >= 2 else { return 0 }
        return Self.spread(of: points, about: Self.centroid(of: points))
    }

    /// Moves to the contacts of a new frame and returns what changed.
    ///
    /// Only contacts present both before and after (by id) are compared; a
    /// contact that joins or leaves changes nothing by itself. Contacts with a
    /// non-finite position are ignored, and of several with the same id the
    /// first counts.
    @discardableResult
    public mutating func update(_ newContacts: [Contact]) -> Delta {
        let current = Self.normalized(newContacts)
        let delta = Self.delta(from: contacts, to: current)
        contacts = current
        lastDelta = delta
        let translation = translationMillimeters + delta.translationMillimeters
        if translation.isFinite { translationMillimeters = translation }
        let newScale = scale * delta.scaleRatio
        if newScale.isFinite, newScale > 0 { scale = newScale }
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
        contacts = Self.normalized(newContacts)
        lastDelta = .identity
    }

    /// The change between two frames' normalized contacts, from the contacts they share.
    private static func delta(from previous: [Contact], to current: [Contact]) -> Delta {
        var positionBefore: [Int: Point] = [:]
        for contact in previous { positionBefore[contact.id] = contact.position }
        var before: [Point] = []
        var after: [Point] = []
        for contact in current {
            if let position = positionBefore[contact.id] {
                before.append(position)
                after.append(contact.position)
            }
        }
        guard !before.isEmpty else { return .identity }

        var delta = Delta.identity
        let centroidBefore = centroid(of: before)
        let centroidAfter = centroid(of: after)
        let translation = centroidAfter - centroidBefore
        if translation.isFinite { delta.translationMillimeters = translation }

        guard before.count >= 2 else { return delta }
        let spreadBefore = spread(of: before, about: centroidBefore)
        let spreadAfter = spread(of: after, about: centroidAfter)
        guard spreadBefore.isFinite, spreadAfter.isFinite,
              spreadBefore >= minimumSpreadMillimeters, spreadAfter >= minimumSpreadMillimeters
        else { return delta }
        delta.scaleRatio = spreadAfter / spreadBefore

        // Sum of r_before * r_after * (sin, cos) of each contact's angle change:
        // its argument is the weighted circular mean of the changes. In y-down
        // coordinates a positive cross product is a clockwise turn on screen.
        var sine = 0.0, cosine = 0.0
        for (old, new) in zip(before, after) {
            let a = old - centroidBefore, b = new - centroidAfter
            sine += a.x * b.y - a.y * b.x
            cosine += a.x * b.x + a.y * b.y
        }
        let degrees = atan2(sine, cosine) * 180 / Double.pi
        if degrees.isFinite { delta.rotationDegrees = degrees }
        return delta
    }

    /// `contacts` without non-finite positions or repeated ids (the first
    /// wins), sorted by id.
    private static func normalized(_ contacts: [Contact]) -> [Contact] {
        var seen: Set<Int> = []
        return contacts
            .filter { $0.position.isFinite && seen.insert($0.id).inserted }
            .sorted { $0.id < $1.id }
    }

    /// The mean of `points`, which must not be empty.
    private static func centroid(of points: [Point]) -> Point {
        var sum = Point.zero
        for point in points { sum = sum + point }
        let mean = sum * (1 / Double(points.count))
        if mean.isFinite { return mean }
        // The sum overflowed: average the scaled-down points instead.
        var scaled = Point.zero
        for point in points { scaled = scaled + point * (1 / Double(points.count)) }
        return scaled
    }

    /// The mean distance of `points` from `center`.
    private static func spread(of points: [Point], about center: Point) -> Double {
        var total = 0.0
        for point in points { total += point.distance(to: center) }
        return total / Double(points.count)
    }
}
