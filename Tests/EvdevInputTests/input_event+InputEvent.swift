import CLibevdev
import TouchInput

extension input_event {
    /// The kernel's `struct input_event` for `event`, stamped at its time
    /// (`InputEvent.seconds` and `microsecondsPart`, which floor for times
    /// before the epoch): what a test writes where the reader reads.
    init(_ event: InputEvent) {
        self.init()
        time.tv_sec = Int(event.seconds)
        time.tv_usec = Int(event.microsecondsPart)
        type = event.type
        code = event.code
        value = event.value
    }
}
