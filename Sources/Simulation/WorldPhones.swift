import FoundationEssentials

/// The phones of the world: the app restarted, a new phone on the same Apple ID, an old one put away.
extension World {
    /// Quits the app and starts it again on the same phone: its storage stays, in-flight answers are lost.
    public func restartApp() {
        timeline.log(.control, "restart app on \(device.name)")
        switchDevice(to: device.name)
    }

    /// The phone on screen's name when it is not the one phone a world starts with: with several phones (a new
    /// device, another account's, a reopened folder's), nothing on screen said whose phone the pane showed
    /// (session 27). Nil for a world of its one first phone.
    public var phoneNameToShow: String? {
        storages.count > 1 || device.name != WorldOptions.firstPhone ? device.name : nil
    }

    /// A new phone signed in with the same Apple ID (or `appleId`, one of the world's), with empty storage; the app
    /// starts on it.
    public func newDevice(named name: String, appleId: String? = nil) throws(WorldSetupError) {
        guard storages[name] == nil else {
            throw WorldSetupError(description: "there is already a device named \(name)")
        }
        // A phone an earlier run left in the state directory is not new: it has its identity and receipt.
        if let state = options.stateDirectory, FileManager.default.fileExists(atPath: "\(state)/devices/\(name)") {
            throw WorldSetupError(description: "there is already a device named \(name) in \(state)/devices")
        }
        try addStorage(named: name)
        if let appleId, appleId != options.appleId { phoneAppleIds[name] = appleId }
        timeline.log(.control, "new device \(name) on Apple ID \(appleId ?? options.appleId)")
        switchDevice(to: name)
    }

    /// The phones of the world by name: every one this run had on screen, and those its state folder keeps from earlier
    /// runs (the phone a reopened folder did not open on).
    public var phones: [String] { Set(storages.keys).union(keptPhones).sorted() }

    /// The phone folders under `state/devices`; none in memory, or when the folder cannot be listed.
    static func phoneFolders(in state: String?) -> [String] {
        guard let state else { return [] }
        let folder = "\(state)/devices"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { name in
            var isFolder = false
            return FileManager.default.fileExists(atPath: "\(folder)/\(name)", isDirectory: &isFolder) && isFolder
        }
    }

    /// `phone NAME`: a phone the world has comes back on screen. The world runs one app at a time, as `family add`
    /// brings a member's phone "back": the phone left keeps what it stored (its guest, account, receipt, articles),
    /// and Apple keeps charging and queueing for it; its app starts again on that when it is back.
    public func showPhone(named name: String) throws(WorldSetupError) {
        guard name != device.name else { throw WorldSetupError(description: "\(name) is already on screen") }
        if storages[name] == nil {
            guard phones.contains(name) else {
                throw WorldSetupError(
                    description: "there is no phone named \(name) (phones: \(phones.joined(separator: ", ")))")
            }
            // Kept by an earlier run: signed into a family member's Apple ID when named after one in the family; a
            // member's phone whose member left is not taken for the purchaser's.
            let member = familyMembers.first { Self.phoneName(of: $0) == name }
            if member == nil, name.hasSuffix("-iphone"), phoneAppleIds[name] == nil {
                throw WorldSetupError(
                    description: "\(name) is a family member's phone whose Apple ID this run does not know: "
                        + "family add the member to bring it back")
            }
            try addStorage(named: name)
            if let member { phoneAppleIds[name] = member }
        }
        timeline.log(.control, "phone \(name) back on screen: its app starts again on what it kept")
        switchDevice(to: name)
    }

    /// A new phone's storage, in memory or under the state folder, watched as every phone's is.
    func addStorage(named name: String) throws(WorldSetupError) {
        do {
            let storage = try Self.storage(named: name, state: options.stateDirectory)
            storages[name] = storage
            watch(storage)
            // A new phone shows the world's language (one for every phone): kept with it, as a reopened folder reads it.
            if store.locale != config.store.locale { keepLocale(of: name) }
        } catch {
            throw WorldSetupError(description: "\(error)")
        }
    }

    /// A phone put away for good (not the one on screen): the world forgets it and, kept on disk, its
    /// folder goes, whichever run made it. Only for phones the caller made itself: a workload that makes a phone per restore
    /// keeps a few, or the folder would hold every phone's ever-growing receipt.
    public func retireDevice(named name: String) throws(WorldSetupError) {
        guard name != device.name else { throw WorldSetupError(description: "\(name) is the phone on screen") }
        let known = storages.removeValue(forKey: name) != nil
        lastGateQuestions[name] = nil
        if let state = options.stateDirectory, FileManager.default.fileExists(atPath: "\(state)/devices/\(name)") {
            do {
                try FileManager.default.removeItem(atPath: "\(state)/devices/\(name)")
            } catch {
                throw WorldSetupError(description: "cannot remove \(state)/devices/\(name): \(error)")
            }
        } else if !known {
            return
        }
        timeline.log(.control, "device \(name) put away")
    }

    func switchDevice(to name: String) {
        guard let storage = storages[name] else { return }
        let appleId = phoneAppleIds[name] ?? options.appleId
        let changed = name != device.name
        quitApp()
        // The next launch asks its own questions, and not the one the last launch on that phone asked last: another
        // phone's app never knew it, and the phone left keeps its own for its return.
        lastGateQuestions[device.name] = device.state.lastGateQuestion
        let lastQuestion = lastGateQuestions[name]
        device = Device(
            name: name, app: config.app,
            queue: store.paymentQueue(deviceId: Self.deviceId(name, appleId), appleId: appleId, receipt: storage),
            storage: storage, network: network, scheduler: scheduler, timeline: timeline,
            gateDraws: gateDraws.split(), lastGateQuestion: lastQuestion)
        device.coordinator.finishPolicy = finishPolicy
        device.defect = defect
        device.readerAge = readerAge
        attach(device)
        if changed { recordPhoneOnScreen() }
        device.launch()
    }
}
