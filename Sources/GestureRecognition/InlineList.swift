/// A list of at most ``capacity`` elements kept inside itself: no heap
/// allocation, and copies are plain bytes with no reference counting. It is
/// the storage of the engine's per-frame contact lists, so that a frame
/// allocates nothing and copying a state is cheap.
///
/// An element appended to a full list is not kept: ``append(_:)`` says so,
/// and each user decides what that means (a frame with more contacts than
/// any gesture has fingers, a gesture that saw more fingers come and go).
///
///     var pressures = InlineList<Double?>()
///     pressures.append(120); pressures.append(nil)
///     pressures.contains { $0 == nil }   // true, without allocating
///
/// It is not a `Sequence`, which would copy it into an iterator: iterate
/// with `indices` and the subscript, or the methods here, which read it in place.
struct InlineList<Element: BitwiseCopyable & InlineStorable>: BitwiseCopyable {
    /// The most elements a list keeps: more than the fingers of any gesture
    /// (``GestureEngine/maximumFingers``).
    static var capacity: Int { 8 }

    // Eight elements in a tuple rather than an `InlineArray`: Swift 6.3
    // copies a whole `InlineArray` property to read one element of it; a
    // tuple's elements are read in place, and ``withElements(_:)`` sees them
    // as one buffer (a homogeneous tuple is laid out as an array).
    private var storage = (
        Element.placeholder, Element.placeholder, Element.placeholder, Element.placeholder,
        Element.placeholder, Element.placeholder, Element.placeholder, Element.placeholder
    )
    /// The number of elements.
    private(set) var count = 0

    /// An empty list.
    init() {}

    /// Whether the list has no element.
    var isEmpty: Bool { count == 0 }
    /// Whether an element appended now would not be kept.
    var isFull: Bool { count == Self.capacity }
    /// The valid subscripts, `0..<count`.
    var indices: Range<Int> { 0..<count }

    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count, "InlineList index out of range")
            switch index {
            case 0: return storage.0
            case 1: return storage.1
            case 2: return storage.2
            case 3: return storage.3
            case 4: return storage.4
            case 5: return storage.5
            case 6: return storage.6
            default: return storage.7
            }
        }
        set {
            precondition(index >= 0 && index < count, "InlineList index out of range")
            store(newValue, at: index)
        }
    }

    private mutating func store(_ element: Element, at index: Int) {
        switch index {
        case 0: storage.0 = element
        case 1: storage.1 = element
        case 2: storage.2 = element
        case 3: storage.3 = element
        case 4: storage.4 = element
        case 5: storage.5 = element
        case 6: storage.6 = element
        default: storage.7 = element
        }
    }

    /// Calls `body` with the elements as a buffer, for loops over the whole
    /// list: one copy of the list, then plain reads.
    func withElements<Result>(_ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result {
        var elements = storage
        let count = self.count
        return try withUnsafeMutablePointer(to: &elements) { tuple in
            try body(UnsafeBufferPointer(start: UnsafeRawPointer(tuple).assumingMemoryBound(to: Element.self), count: count))
        }
    }

    /// Adds `element` at the end; returns false, keeping nothing, when the list is full.
    @discardableResult
    mutating func append(_ element: Element) -> Bool {
        guard count < Self.capacity else { return false }
        store(element, at: count)
        count += 1
        return true
    }

    /// Removes the element at `index`, moving those after it forward.
    mutating func remove(at index: Int) {
        precondition(index >= 0 && index < count, "InlineList index out of range")
        var position = index
        while position + 1 < count {
            store(self[position + 1], at: position)
            position += 1
        }
        count -= 1
    }

    /// Removes every element.
    mutating func removeAll() {
        count = 0
    }

    /// Keeps the first `newCount` elements and removes the rest.
    mutating func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= count, "InlineList truncated past its end")
        count = newCount
    }

    /// The index of the first element that satisfies `predicate`, or nil.
    func firstIndex(where predicate: (Element) -> Bool) -> Int? {
        withElements { elements in
            for index in elements.indices where predicate(elements[index]) { return index }
            return nil
        }
    }

    /// Whether an element satisfies `predicate`.
    func contains(where predicate: (Element) -> Bool) -> Bool {
        firstIndex(where: predicate) != nil
    }

    /// Whether every element satisfies `predicate`.
    func allSatisfy(_ predicate: (Element) -> Bool) -> Bool {
        firstIndex { !predicate($0) } == nil
    }

    /// The elements, in an array (which allocates).
    var array: [Element] {
        var result: [Element] = []
        result.reserveCapacity(count)
        for index in indices { result.append(self[index]) }
        return result
    }
}

extension InlineList: Equatable where Element: Equatable {
    static func == (a: InlineList, b: InlineList) -> Bool {
        guard a.count == b.count else { return false }
        for index in a.indices where a[index] != b[index] { return false }
        return true
    }
}

extension InlineList: Hashable where Element: Hashable {
    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for index in indices { hasher.combine(self[index]) }
    }
}

extension InlineList: Sendable where Element: Sendable {}

/// A type ``InlineList`` can keep: it has a value to fill unused room with.
protocol InlineStorable {
    /// What unused elements hold; never read as an element.
    static var placeholder: Self { get }
}

extension Optional: InlineStorable {
    static var placeholder: Self { nil }
}
