extension World {
    /// The app's process dies mid-flight: no graceful stop, answers in flight are lost, and nothing
    /// runs on the phone until `restartApp()` launches it again (a scenario's next action does).
    public func kill() {
        timeline.log(.control, "app killed on \(device.name)")
        quitApp()
    }
}
