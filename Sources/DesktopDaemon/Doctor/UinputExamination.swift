/// `/dev/uinput`, for interception and the keys, button and drag actions:
/// a problem when the configuration needs it (or there is none to say),
/// else a note. Leaves in the context whether it can be written.
struct UinputExamination: DoctorExamination {
    var area: DoctorCheck.Area { .uinput }

    func examine(_ context: inout DoctorContext) -> DoctorCheck {
        let needed = context.configuration.map { $0.intercept || $0.usesInputActions } ?? true
        let path = "/dev/uinput"
        let usedFor = "interception (keeping claimed gestures from the desktop) and the keys, button and drag actions"
        context.uinputWritable = false
        guard context.system.status(of: path) != nil else {
            return DoctorCheck(
                area: .uinput, status: needed ? .problem : .note,
                summary: "\(path) does not exist (the uinput module is not loaded), so \(usedFor) will not work.",
                fix: "Load it with 'sudo modprobe uinput' (the udev rule of gestures loads it at boot).")
        }
        if context.system.canWrite(path) {
            context.uinputWritable = true
            return DoctorCheck(area: .uinput, status: .ok, summary: "\(path) can be written: \(usedFor) will work.")
        }
        let reason = context.accessReason(path, reading: false)
        return DoctorCheck(
            area: .uinput, status: needed ? .problem : .note,
            summary: "\(path) cannot be opened for writing, because \(reason.why), so \(usedFor) will not work.",
            fix: reason.fix)
    }
}
