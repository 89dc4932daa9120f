/// What a container notes of the modules that register in it: which module made each
/// registration, and which registrations a later one for the same key replaced.
extension Container {
    /// The module registering on this task, whose registrations are marked with it.
    package struct Registering: Sendable {
        package let module: ModuleOrigin
        package let isLiveOnly: Bool
    }

    @TaskLocal package static var registering: Registering?

    /// A registration a later one for the same key replaced (last one wins), and the one that did.
    package struct ReplacedRegistration: Sendable {
        package let key: ServiceKey
        package let replaced: (site: RegistrationSite, module: ModuleOrigin?)
        package let winner: (site: RegistrationSite, module: ModuleOrigin?)
    }
}
