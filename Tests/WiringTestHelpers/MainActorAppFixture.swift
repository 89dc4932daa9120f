import Wiring

// An app graph shaped like a real SwiftUI app ported from Swinject: "Pantry", a grocery app.
// Three modules register 129 factories (plus 5 `.implements` forwards, 134 keys in all):
//
// - CoreModule: configuration, logging, storage and networking, plain `Sendable` services, and
//   the services the app opens asynchronously at launch (`registerAsync`: the database, the
//   search index, the remote configuration, the sync engine); `ImageRequest` takes six runtime
//   arguments.
// - DataModule: repositories and domain services, plain `Sendable` services, four of them
//   taking runtime arguments.
// - FeatureModule: routers, coordinators and view models, `@MainActor` classes registered with
//   `registerMainActor`, twenty of them taking 1 to 9 runtime arguments (one a generic view
//   model); eleven plain registrations that forward a main-actor instance as a protocol (the
//   tabs as `TabContent`, by name; the router as `Routing`…), which only a synchronous resolve
//   on the main actor can build; and `AppLaunch`, awaited at launch, which resolves main-actor
//   view models with `await`.
//
// Scopes are mixed (`.container`, `.graph`, `.weak`, `.transient`), without a captive
// dependency: a kept instance (`.container`, `.weak`) holds only `.container` and `.graph` ones,
// and what those `.graph` ones hold, at any depth, is `.container` or `.graph` too.
// The deepest root, `CheckoutStepViewModel`, is 14 levels deep.
//
// `MainActorApp.roots` lists every registered key, with sample arguments for those taking
// them: `resolveEveryRoot` and `resolveEveryRootAsync` resolve them all, and `addSamples` hands
// the same samples to a verification.

/// The Pantry app: its modules, its container, and every root it registers.
package enum MainActorApp {
    /// The app's modules, in the order the app applies them.
    package static var modules: [any Module] { [CoreModule(), DataModule(), FeatureModule()] }

    /// The app's container, as the app builds it.
    /// - Parameter launchServicesInMemory: Whether to replace the services the app awaits at launch
    ///   (`registerAsync`) with in-memory ones registered synchronously under the same keys, as the
    ///   app's tests do to resolve and check everything synchronously (see ``InMemoryLaunchModule``).
    package static func makeContainer(launchServicesInMemory: Bool = false) -> Container {
        Container(modules: launchServicesInMemory ? modules + [InMemoryLaunchModule()] : modules)
    }
}

// MARK: - CoreModule

extension MainActorApp {
    /// Configuration, logging, storage, networking, and the services opened at launch.
    package struct CoreModule: Module {
        package init() {}

        package func register(in container: Container) {
            container.register(AppConfiguration.self) { _ in AppConfiguration() }
                .scope(.container)
            container.register(BuildInfo.self) { _ in BuildInfo() }
                .scope(.container)
            container.register(LogSink.self) { _ in LogSink() }
                .scope(.container)
            container.register(AppLogger.self) { r in try AppLogger(sink: r.resolve(), build: r.resolve()) }
                .scope(.container)
            container.register(SystemClock.self) { _ in SystemClock() }
            container.register(DateFormatting.self) { r in
                try DateFormatting(clock: r.resolve(), configuration: r.resolve())
            }
            .scope(.container)
            container.register(PriceFormatter.self) { r in try PriceFormatter(configuration: r.resolve()) }
            container.register(Localizer.self) { r in try Localizer(configuration: r.resolve()) }
                .scope(.container)
            container.register(KeychainStore.self) { _ in KeychainStore() }
                .scope(.container)
            container.register(PreferencesStore.self) { r in try PreferencesStore(configuration: r.resolve()) }
                .scope(.container)
            container.register(CredentialStore.self) { r in
                try CredentialStore(keychain: r.resolve(), preferences: r.resolve())
            }
            container.register(Reachability.self) { _ in Reachability() }
                .scope(.container)
            container.register(RequestSigner.self) { r in
                try RequestSigner(credentials: r.resolve(), clock: r.resolve())
            }
            container.register(HTTPTransport.self) { r in
                try HTTPTransport(configuration: r.resolve(), logger: r.resolve())
            }
            .scope(.container)
            container.register(RetryPolicy.self) { _ in RetryPolicy() }
            container.register(APIClient.self) { r in
                try APIClient(
                    transport: r.resolve(),
                    signer: r.resolve(),
                    retry: r.resolve(),
                    reachability: r.resolve())
            }
            container.register(ImageCache.self) { _ in ImageCache() }
                .scope(.weak)
            container.register(ImageLoader.self) { r in try ImageLoader(api: r.resolve(), cache: r.resolve()) }
            container.register(AnalyticsClient.self) { r in
                try AnalyticsClient(api: r.resolve(), logger: r.resolve())
            }
            .scope(.container)
            .implements((any EventTracking).self)
            .initCompleted { r, analytics in
                let reporter = try r.resolve(CrashReporter.self)
                analytics.crashReporter.withLock { $0 = reporter }
            }
            container.register(CrashReporter.self) { r in
                try CrashReporter(analytics: r.resolve(), logger: r.resolve())
            }
            .scope(.container)
            container.register(FeatureFlags.self) { r in
                try FeatureFlags(preferences: r.resolve(), configuration: r.resolve())
            }
            .scope(.container)
            container.register(DatabaseURL.self) { r in try DatabaseURL(configuration: r.resolve()) }
            container.register(ImageRequest.self) {
                (r, url: String, width: Int, height: Int, scale: Double, cropsToFit: Bool, placeholder: String?) in
                try ImageRequest(
                    url: url,
                    width: width,
                    height: height,
                    scale: scale,
                    cropsToFit: cropsToFit,
                    placeholder: placeholder,
                    loader: r.resolve())
            }
            container.registerAsync(AppDatabase.self) { r in
                try await AppDatabase.open(url: r.resolve(), logger: r.resolve())
            }
            .scope(.container)
            .implements((any DatabaseReading).self)
            container.registerAsync(SearchIndex.self) { r in
                try await SearchIndex(database: r.resolve(), logger: r.resolve())
            }
            .scope(.container)
            container.registerAsync(RemoteConfig.self) { r in
                try await RemoteConfig.fetch(api: r.resolve(), flags: r.resolve())
            }
            .scope(.container)
            container.registerAsync(SyncEngine.self) { r in
                try await SyncEngine(database: r.resolve(), api: r.resolve(), remoteConfig: r.resolve())
            }
            .scope(.container)
        }
    }
}

// MARK: - DataModule

extension MainActorApp {
    /// Repositories and domain services.
    package struct DataModule: Module {
        package init() {}

        package func register(in container: Container) {
            container.register(ProductCache.self) { _ in ProductCache() }
                .scope(.container)
            container.register(ProductMapper.self) { r in try ProductMapper(formatter: r.resolve()) }
            container.register(ProductRepository.self) { r in
                try ProductRepository(api: r.resolve(), mapper: r.resolve(), cache: r.resolve())
            }
            container.register(CategoryRepository.self) { r in try CategoryRepository(api: r.resolve()) }
                .scope(.container)
            container.register(CartStore.self) { r in try CartStore(preferences: r.resolve()) }
                .scope(.container)
            container.register(CartRepository.self) { r in
                try CartRepository(store: r.resolve(), api: r.resolve())
            }
            container.register(PricingService.self) { r in
                try PricingService(formatter: r.resolve(), products: r.resolve(), flags: r.resolve())
            }
            container.register(DiscountEngine.self) { r in
                try DiscountEngine(pricing: r.resolve(), flags: r.resolve())
            }
            container.register(InventoryService.self) { r in
                try InventoryService(products: r.resolve(), api: r.resolve())
            }
            container.register(OrderRepository.self) { r in
                try OrderRepository(api: r.resolve(), credentials: r.resolve())
            }
            .scope(.container)
            container.register(PaymentGateway.self) { r in
                try PaymentGateway(api: r.resolve(), signer: r.resolve())
            }
            .scope(.container)
            .implements((any PaymentProcessing).self)
            container.register(CheckoutService.self) { r in
                try CheckoutService(
                    cart: r.resolve(),
                    pricing: r.resolve(),
                    discounts: r.resolve(),
                    payments: r.resolve(),
                    orders: r.resolve(),
                    events: r.resolve())
            }
            container.register(UserRepository.self) { r in
                try UserRepository(api: r.resolve(), credentials: r.resolve())
            }
            .scope(.container)
            container.register(AuthService.self) { r in
                try AuthService(users: r.resolve(), credentials: r.resolve(), events: r.resolve())
            }
            .scope(.container)
            .implements((any Authenticating).self)
            container.register(SessionManager.self) { r in
                try SessionManager(auth: r.resolve(), preferences: r.resolve())
            }
            .scope(.container)
            container.register(ReviewRepository.self) { r in try ReviewRepository(api: r.resolve()) }
            container.register(FavoritesStore.self) { r in try FavoritesStore(preferences: r.resolve()) }
                .scope(.container)
            container.register(RecommendationService.self) { r in
                try RecommendationService(products: r.resolve(), favorites: r.resolve(), events: r.resolve())
            }
            container.register(SearchService.self) { r in
                try SearchService(products: r.resolve(), categories: r.resolve())
            }
            container.register(AddressBook.self) { r in try AddressBook(users: r.resolve()) }
            container.register(ShippingEstimator.self) { r in
                try ShippingEstimator(addresses: r.resolve(), clock: r.resolve(), api: r.resolve())
            }
            container.register(NotificationClient.self) { r in try NotificationClient(api: r.resolve()) }
                .scope(.container)
            container.register(PushRegistrar.self) { r in
                try PushRegistrar(notifications: r.resolve(), credentials: r.resolve())
            }
            container.register(OrderTracker.self) { r in
                try OrderTracker(orders: r.resolve(), clock: r.resolve(), notifications: r.resolve())
            }
            container.register(ReceiptRenderer.self) { r in
                try ReceiptRenderer(formatter: r.resolve(), dates: r.resolve(), localizer: r.resolve())
            }
            container.register(ShareLinkBuilder.self) { r in try ShareLinkBuilder(configuration: r.resolve()) }
            container.register(DeepLinkParser.self) { r in try DeepLinkParser(configuration: r.resolve()) }
            container.register(ProductQuery.self) { (r, term: String, page: Int) in
                try ProductQuery(term: term, page: page, search: r.resolve())
            }
            container.register(PriceQuote.self) { (r, productID: String, quantity: Int, coupon: String?) in
                try PriceQuote(
                    productID: productID,
                    quantity: quantity,
                    coupon: coupon,
                    pricing: r.resolve(),
                    discounts: r.resolve())
            }
            container.register(ShareLink.self) { (r, productID: String) in
                try ShareLink(productID: productID, builder: r.resolve())
            }
            container.register(TrackingSnapshot.self) {
                (r, orderID: String, carrier: String, trackingNumber: String, eta: Int?, signed: Bool) in
                try TrackingSnapshot(
                    orderID: orderID,
                    carrier: carrier,
                    trackingNumber: trackingNumber,
                    eta: eta,
                    signed: signed,
                    tracker: r.resolve())
            }
        }
    }
}

// MARK: - FeatureModule

extension MainActorApp {
    /// Routers, coordinators and view models, on the main actor.
    package struct FeatureModule: Module {
        package init() {}

        package func register(in container: Container) {
            container.registerMainActor(AppRouter.self) { _ in AppRouter() }
                .scope(.container)
            container.registerMainActor(TabRouter.self) { r in try TabRouter(router: r.resolve()) }
                .scope(.container)
            container.registerMainActor(ToastPresenter.self) { _ in ToastPresenter() }
                .scope(.container)
            container.registerMainActor(AlertPresenter.self) { r in try AlertPresenter(localizer: r.resolve()) }
                .scope(.container)
            container.registerMainActor(SheetCoordinator.self) { r in try SheetCoordinator(router: r.resolve()) }
            container.registerMainActor(ThemeManager.self) { r in try ThemeManager(preferences: r.resolve()) }
                .scope(.container)
            container.registerMainActor(AppCoordinator.self) { r in
                try AppCoordinator(router: r.resolve(), tabs: r.resolve(), session: r.resolve())
            }
            .scope(.container)
            container.registerMainActor(DeepLinkHandler.self) { r in
                try DeepLinkHandler(router: r.resolve(), parser: r.resolve(), coordinator: r.resolve())
            }
            .scope(.container)
            container.registerMainActor(ScenePhaseObserver.self) { r in
                try ScenePhaseObserver(events: r.resolve())
            }
            .scope(.container)
            container.registerMainActor(KeyboardObserver.self) { _ in KeyboardObserver() }
                .scope(.weak)
            container.registerMainActor(ImagePrefetcher.self) { r in try ImagePrefetcher(loader: r.resolve()) }
                .scope(.weak)
            container.registerMainActor(RootViewModel.self) { r in
                try RootViewModel(
                    coordinator: r.resolve(),
                    tabs: r.resolve(),
                    session: r.resolve(),
                    theme: r.resolve())
            }
            .scope(.container)
            container.registerMainActor(TabBarViewModel.self) { r in
                try TabBarViewModel(
                    tabs: r.resolve(),
                    cartBadge: r.resolve(),
                    contents: TabBarViewModel.tabNames.map { try r.resolve((any TabContent).self, name: $0) })
            }
            container.registerMainActor(LaunchScreenViewModel.self) { r in
                try LaunchScreenViewModel(build: r.resolve(), theme: r.resolve())
            }
            .scope(.transient)
            container.registerMainActor(OnboardingCoordinator.self) { r in
                try OnboardingCoordinator(router: r.resolve(), preferences: r.resolve())
            }
            container.registerMainActor(OnboardingViewModel.self) { r in
                try OnboardingViewModel(coordinator: r.resolve(), localizer: r.resolve())
            }
            .scope(.transient)
            container.registerMainActor(LoginViewModel.self) { r in
                try LoginViewModel(auth: r.resolve(), alerts: r.resolve(), coordinator: r.resolve())
            }
            .scope(.transient)
            container.registerMainActor(HomeCoordinator.self) { r in
                try HomeCoordinator(app: r.resolve(), sheets: r.resolve())
            }
            container.registerMainActor(HomeViewModel.self) { r in
                try HomeViewModel(
                    coordinator: r.resolve(),
                    recommendations: r.resolve(),
                    toasts: r.resolve(),
                    prefetcher: r.resolve())
            }
            container.registerMainActor(BannerCarouselViewModel.self) { r in
                try BannerCarouselViewModel(loader: r.resolve(), events: r.resolve())
            }
            container.registerMainActor(RecommendationsViewModel.self) { r in
                try RecommendationsViewModel(recommendations: r.resolve(), coordinator: r.resolve())
            }
            container.registerMainActor(PromotionsViewModel.self) { r in
                try PromotionsViewModel(discounts: r.resolve(), flags: r.resolve())
            }
            container.registerMainActor(CatalogCoordinator.self) { r in
                try CatalogCoordinator(app: r.resolve(), sheets: r.resolve())
            }
            container.registerMainActor(CatalogViewModel.self) { r in
                try CatalogViewModel(coordinator: r.resolve(), categories: r.resolve(), search: r.resolve())
            }
            container.registerMainActor(SearchCoordinator.self) { r in try SearchCoordinator(catalog: r.resolve()) }
            container.registerMainActor(SearchViewModel.self) { r in
                try SearchViewModel(coordinator: r.resolve(), search: r.resolve(), keyboard: r.resolve())
            }
            container.registerMainActor(CartCoordinator.self) { r in
                try CartCoordinator(app: r.resolve(), sheets: r.resolve())
            }
            container.registerMainActor(CartViewModel.self) { r in
                try CartViewModel(
                    cart: r.resolve(),
                    pricing: r.resolve(),
                    toasts: r.resolve(),
                    coordinator: r.resolve())
            }
            .scope(.container)
            .implements((any CartBadgeProviding).self)
            container.registerMainActor(CheckoutCoordinator.self) { r in
                try CheckoutCoordinator(cart: r.resolve(), sheets: r.resolve(), alerts: r.resolve())
            }
            container.registerMainActor(CheckoutViewModel.self) { r in
                try CheckoutViewModel(
                    coordinator: r.resolve(),
                    sheets: r.resolve(),
                    checkout: r.resolve(),
                    shipping: r.resolve(),
                    receipts: r.resolve())
            }
            container.registerMainActor(OrdersCoordinator.self) { r in try OrdersCoordinator(app: r.resolve()) }
            container.registerMainActor(OrdersViewModel.self) { r in
                try OrdersViewModel(coordinator: r.resolve(), orders: r.resolve(), tracker: r.resolve())
            }
            container.registerMainActor(AccountCoordinator.self) { r in
                try AccountCoordinator(app: r.resolve(), sheets: r.resolve())
            }
            container.registerMainActor(AccountViewModel.self) { r in
                try AccountViewModel(coordinator: r.resolve(), session: r.resolve(), users: r.resolve())
            }
            container.registerMainActor(SettingsViewModel.self) { r in
                try SettingsViewModel(
                    coordinator: r.resolve(),
                    theme: r.resolve(),
                    preferences: r.resolve(),
                    build: r.resolve())
            }
            container.registerMainActor(FavoritesViewModel.self) { r in
                try FavoritesViewModel(favorites: r.resolve(), products: r.resolve(), coordinator: r.resolve())
            }
            container.registerMainActor(NotificationsViewModel.self) { r in
                try NotificationsViewModel(notifications: r.resolve(), push: r.resolve(), coordinator: r.resolve())
            }
            container.registerMainActor(SupportCoordinator.self) { r in
                try SupportCoordinator(account: r.resolve(), router: r.resolve())
            }
            container.registerMainActor(HelpCenterViewModel.self) { r in
                try HelpCenterViewModel(coordinator: r.resolve(), localizer: r.resolve(), api: r.resolve())
            }
            container.registerMainActor(ProductDetailViewModel.self) { (r, productID: String) in
                try ProductDetailViewModel(
                    productID: productID,
                    coordinator: r.resolve(),
                    inventory: r.resolve(),
                    pricing: r.resolve())
            }
            .scope(.container)
            container.registerMainActor(DetailViewModel<Product>.self) { (r, product: Product) in
                try DetailViewModel(
                    product: product,
                    detail: r.resolve(ProductDetailViewModel.self, arguments: product.id),
                    quote: r.resolve(PriceQuote.self, arguments: product.id, 1, String?.none),
                    share: r.resolve(ShareLink.self, arguments: product.id),
                    coordinator: r.resolve())
            }
            container.registerMainActor(CategoryViewModel.self) { (r, categoryID: String, page: Int?) in
                try CategoryViewModel(
                    categoryID: categoryID,
                    page: page,
                    query: r.resolve(ProductQuery.self, arguments: categoryID, page ?? 1),
                    categories: r.resolve(),
                    coordinator: r.resolve())
            }
            container.registerMainActor(SearchResultsViewModel.self) { (r, term: String, page: Int, sort: String?) in
                try SearchResultsViewModel(
                    term: term,
                    page: page,
                    sort: sort,
                    query: r.resolve(ProductQuery.self, arguments: term, page),
                    coordinator: r.resolve())
            }
            container.registerMainActor(OrderDetailViewModel.self) { (r, orderID: String) in
                try OrderDetailViewModel(
                    orderID: orderID,
                    tracking: r.resolve(TrackingSnapshot.self, arguments: orderID, "DHL", "JD0142", Int?.none, false),
                    orders: r.resolve(),
                    coordinator: r.resolve())
            }
            .scope(.graph)
            container.registerMainActor(ReviewComposerViewModel.self) {
                (r, productID: String, rating: Int, draft: String?) in
                try ReviewComposerViewModel(
                    productID: productID,
                    rating: rating,
                    draft: draft,
                    reviews: r.resolve(),
                    toasts: r.resolve(),
                    coordinator: r.resolve())
            }
            container.registerMainActor(CheckoutStepViewModel.self) { (r, step: Int, cartID: String) in
                try CheckoutStepViewModel(step: step, cartID: cartID, checkout: r.resolve(), coordinator: r.resolve())
            }
            container.registerMainActor(AddressEditorViewModel.self) {
                (r, addressID: String?, country: String, isDefault: Bool, label: String?) in
                try AddressEditorViewModel(
                    addressID: addressID,
                    country: country,
                    isDefault: isDefault,
                    label: label,
                    addresses: r.resolve(),
                    shipping: r.resolve(),
                    alerts: r.resolve())
            }
            container.registerMainActor(PaymentSheetViewModel.self) {
                (r, amount: Int, currency: String, orderID: String, savedCardID: String?, allowsExpressPay: Bool) in
                try PaymentSheetViewModel(
                    amount: amount,
                    currency: currency,
                    orderID: orderID,
                    savedCardID: savedCardID,
                    allowsExpressPay: allowsExpressPay,
                    payments: r.resolve(),
                    sheets: r.resolve(),
                    formatter: r.resolve())
            }
            container.registerMainActor(ProductGalleryViewModel.self) { (
                r, productID: String, imageIDs: [String], startIndex: Int, zoom: Double, showsThumbnails: Bool,
                caption: String?
            ) in
                try ProductGalleryViewModel(
                    productID: productID,
                    imageIDs: imageIDs,
                    startIndex: startIndex,
                    zoom: zoom,
                    showsThumbnails: showsThumbnails,
                    caption: caption,
                    image: r.resolve(ImageRequest.self, arguments: productID, 1024, 768, zoom, false, caption),
                    prefetcher: r.resolve(),
                    sheets: r.resolve())
            }
            container.registerMainActor(ShippingOptionsViewModel.self) { (
                r, orderID: String, street: String, city: String, postalCode: String, country: String,
                express: Bool, note: String?
            ) in
                try ShippingOptionsViewModel(
                    orderID: orderID,
                    street: street,
                    city: city,
                    postalCode: postalCode,
                    country: country,
                    express: express,
                    note: note,
                    estimator: r.resolve(),
                    coordinator: r.resolve())
            }
            container.registerMainActor(FilterSheetViewModel.self) { (
                r, categoryID: String, minPrice: Int?, maxPrice: Int?, brand: String?, inStockOnly: Bool,
                sort: String, page: Int, pageSize: Int
            ) in
                try FilterSheetViewModel(
                    categoryID: categoryID,
                    minPrice: minPrice,
                    maxPrice: maxPrice,
                    brand: brand,
                    inStockOnly: inStockOnly,
                    sort: sort,
                    page: page,
                    pageSize: pageSize,
                    query: r.resolve(ProductQuery.self, arguments: categoryID, page),
                    inventory: r.resolve(),
                    sheets: r.resolve())
            }
            container.registerMainActor(SalesReportViewModel.self) { (
                r, reportID: String, year: Int, month: Int, day: Int?, region: String, currency: String,
                includesTax: Bool, includesRefunds: Bool, title: String?
            ) in
                try SalesReportViewModel(
                    reportID: reportID,
                    year: year,
                    month: month,
                    day: day,
                    region: region,
                    currency: currency,
                    includesTax: includesTax,
                    includesRefunds: includesRefunds,
                    title: title,
                    orders: r.resolve(),
                    formatter: r.resolve(),
                    dates: r.resolve())
            }
            container.registerMainActor(ChatViewModel.self) { (r, threadID: String) in
                try ChatViewModel(threadID: threadID, notifications: r.resolve(), users: r.resolve())
            }
            .scope(.weak)
            container.registerMainActor(ProfileViewModel.self) { (r, userID: String?) in
                try ProfileViewModel(
                    userID: userID,
                    users: r.resolve(),
                    session: r.resolve(),
                    coordinator: r.resolve())
            }
            container.registerMainActor(WishlistItemViewModel.self) { (r, itemID: String, position: Int) in
                try WishlistItemViewModel(
                    itemID: itemID,
                    position: position,
                    favorites: r.resolve(),
                    products: r.resolve())
            }
            container.registerMainActor(CouponViewModel.self) { (r, code: String, cartTotal: Int, expiresIn: Int?) in
                try CouponViewModel(
                    code: code,
                    cartTotal: cartTotal,
                    expiresIn: expiresIn,
                    discounts: r.resolve(),
                    toasts: r.resolve())
            }
            container.registerMainActor(NotificationRowViewModel.self) { (r, notificationID: String, isRead: Bool) in
                try NotificationRowViewModel(
                    notificationID: notificationID,
                    isRead: isRead,
                    notifications: r.resolve(),
                    router: r.resolve())
            }
            container.registerMainActor(OrderRowViewModel.self) {
                (r, orderID: String, index: Int, isHighlighted: Bool, badge: String?) in
                try OrderRowViewModel(
                    orderID: orderID,
                    index: index,
                    isHighlighted: isHighlighted,
                    badge: badge,
                    detail: r.resolve(OrderDetailViewModel.self, arguments: orderID),
                    formatter: r.resolve())
            }
            container.registerMainActor(ProductCardViewModel.self) { (r, product: Product, style: String?) in
                try ProductCardViewModel(product: product, style: style, formatter: r.resolve(), images: r.resolve())
            }
            container.registerAsync(AppLaunch.self) { r in
                try await AppLaunch(
                    database: r.resolve(),
                    search: r.resolve(),
                    sync: r.resolve(),
                    remoteConfig: r.resolve(),
                    root: r.resolve(),
                    deepLinks: r.resolve())
            }
            .scope(.container)

            // Plain factories that forward a main-actor instance: only a synchronous resolve on the
            // main actor can run them.
            container.register((any TabContent).self, name: "home") { r in try r.resolve(HomeViewModel.self) }
            container.register((any TabContent).self, name: "catalog") { r in try r.resolve(CatalogViewModel.self) }
            container.register((any TabContent).self, name: "cart") { r in try r.resolve(CartViewModel.self) }
            container.register((any TabContent).self, name: "orders") { r in try r.resolve(OrdersViewModel.self) }
            container.register((any TabContent).self, name: "account") { r in try r.resolve(AccountViewModel.self) }
            container.register((any Routing).self) { r in try r.resolve(AppRouter.self) }
            container.register((any ToastPresenting).self) { r in try r.resolve(ToastPresenter.self) }
            container.register((any AlertPresenting).self) { r in try r.resolve(AlertPresenter.self) }
            container.register((any ThemeProviding).self) { r in try r.resolve(ThemeManager.self) }
            container.register((any DeepLinkHandling).self) { r in try r.resolve(DeepLinkHandler.self) }
            container.register(NavigationState.self) { r in
                try NavigationState(router: r.resolve(), tabs: r.resolve())
            }
        }
    }
}

// MARK: - Core types

extension MainActorApp {
    /// What the analytics client does, as the services that send events see it.
    package protocol EventTracking: Sendable {}
    /// What the payment gateway does, as checkout sees it.
    package protocol PaymentProcessing: Sendable {}
    /// What the authentication service does, as the session sees it.
    package protocol Authenticating: Sendable {}
    /// What reading the database takes.
    package protocol DatabaseReading: Sendable {}

    /// A screen shown in a tab.
    @MainActor package protocol TabContent: AnyObject {
        var title: String { get }
    }
    /// What the tab bar shows on the cart tab.
    @MainActor package protocol CartBadgeProviding: AnyObject {
        var badgeCount: Int { get }
    }
    /// Pushes screens.
    @MainActor package protocol Routing: AnyObject {
        func push(_ screen: String)
    }
    /// Shows toasts.
    @MainActor package protocol ToastPresenting: AnyObject {
        func show(_ message: String)
    }
    /// Shows alerts.
    @MainActor package protocol AlertPresenting: AnyObject {}
    /// The current theme.
    @MainActor package protocol ThemeProviding: AnyObject {
        var theme: String { get }
    }
    /// Opens deep links.
    @MainActor package protocol DeepLinkHandling: AnyObject {}

    /// An item the catalog lists.
    package struct Product: Hashable, Sendable {
        package let id: String
        package let name: String
        package let price: Int

        package init(id: String, name: String, price: Int) {
            self.id = id
            self.name = name
            self.price = price
        }
    }

    /// The app's settings, read once at launch.
    package struct AppConfiguration: Sendable {
        package var apiHost = "api.pantry.example"
        package var currency = "EUR"
        package var locale = "en_GB"
    }

    package struct BuildInfo: Sendable {
        package var version = "4.2.0"
        package var build = 812
    }

    /// Where log lines go.
    package final class LogSink: Sendable {
        init() {}
    }

    package final class AppLogger: Sendable {
        package let sink: LogSink
        package let build: BuildInfo

        init(sink: LogSink, build: BuildInfo) {
            self.sink = sink
            self.build = build
        }
    }

    package struct SystemClock: Sendable {
        package var now: Int { 1_700_000_000 }
    }

    package final class DateFormatting: Sendable {
        package let clock: SystemClock
        package let configuration: AppConfiguration

        init(clock: SystemClock, configuration: AppConfiguration) {
            self.clock = clock
            self.configuration = configuration
        }
    }

    package struct PriceFormatter: Sendable {
        package let configuration: AppConfiguration
    }

    package final class Localizer: Sendable {
        package let configuration: AppConfiguration

        init(configuration: AppConfiguration) {
            self.configuration = configuration
        }
    }

    package final class KeychainStore: Sendable {
        init() {}
    }

    package final class PreferencesStore: Sendable {
        package let configuration: AppConfiguration

        init(configuration: AppConfiguration) {
            self.configuration = configuration
        }
    }

    package final class CredentialStore: Sendable {
        package let keychain: KeychainStore
        package let preferences: PreferencesStore

        init(keychain: KeychainStore, preferences: PreferencesStore) {
            self.keychain = keychain
            self.preferences = preferences
        }
    }

    /// Kept while something holds it.
    package final class Reachability: Sendable {
        init() {}
    }

    package struct RequestSigner: Sendable {
        package let credentials: CredentialStore
        package let clock: SystemClock
    }

    package final class HTTPTransport: Sendable {
        package let configuration: AppConfiguration
        package let logger: AppLogger

        init(configuration: AppConfiguration, logger: AppLogger) {
            self.configuration = configuration
            self.logger = logger
        }
    }

    package struct RetryPolicy: Sendable {
        package var maxAttempts = 3
    }

    package final class APIClient: Sendable {
        package let transport: HTTPTransport
        package let signer: RequestSigner
        package let retry: RetryPolicy
        package let reachability: Reachability

        init(transport: HTTPTransport, signer: RequestSigner, retry: RetryPolicy, reachability: Reachability) {
            self.transport = transport
            self.signer = signer
            self.retry = retry
            self.reachability = reachability
        }
    }

    package final class ImageCache: Sendable {
        init() {}
    }

    package final class ImageLoader: Sendable {
        package let api: APIClient
        package let cache: ImageCache

        init(api: APIClient, cache: ImageCache) {
            self.api = api
            self.cache = cache
        }
    }

    package final class AnalyticsClient: Sendable, EventTracking {
        package let api: APIClient
        package let logger: AppLogger

        /// Set once made, by `initCompleted`: the crash reporter needs this client too.
        package let crashReporter = Locked<CrashReporter?>(nil)

        init(api: APIClient, logger: AppLogger) {
            self.api = api
            self.logger = logger
        }
    }

    package final class CrashReporter: Sendable {
        package let analytics: AnalyticsClient
        package let logger: AppLogger

        init(analytics: AnalyticsClient, logger: AppLogger) {
            self.analytics = analytics
            self.logger = logger
        }
    }

    package final class FeatureFlags: Sendable {
        package let preferences: PreferencesStore
        package let configuration: AppConfiguration

        init(preferences: PreferencesStore, configuration: AppConfiguration) {
            self.preferences = preferences
            self.configuration = configuration
        }
    }

    package struct DatabaseURL: Sendable {
        package let configuration: AppConfiguration
    }

    package struct ImageRequest: Sendable {
        package let url: String
        package let width: Int
        package let height: Int
        package let scale: Double
        package let cropsToFit: Bool
        package let placeholder: String?
        package let loader: ImageLoader
    }

    /// Opened asynchronously (`registerAsync`), once: a `.container` singleton.
    package final class AppDatabase: Sendable, DatabaseReading {
        package let url: DatabaseURL
        package let logger: AppLogger

        /// Opens the database file, as the app does once at launch.
        package static func open(url: DatabaseURL, logger: AppLogger) async throws -> AppDatabase {
            await Task.yield()
            return AppDatabase(url: url, logger: logger)
        }

        package init(url: DatabaseURL, logger: AppLogger) {
            self.url = url
            self.logger = logger
        }
    }

    package final class SearchIndex: Sendable {
        package let database: AppDatabase
        package let logger: AppLogger

        package init(database: AppDatabase, logger: AppLogger) {
            self.database = database
            self.logger = logger
        }
    }

    package final class RemoteConfig: Sendable {
        package let api: APIClient
        package let flags: FeatureFlags

        /// Fetches the remote configuration.
        package static func fetch(api: APIClient, flags: FeatureFlags) async throws -> RemoteConfig {
            await Task.yield()
            return RemoteConfig(api: api, flags: flags)
        }

        package init(api: APIClient, flags: FeatureFlags) {
            self.api = api
            self.flags = flags
        }
    }

    package final class SyncEngine: Sendable {
        package let database: AppDatabase
        package let api: APIClient
        package let remoteConfig: RemoteConfig

        package init(database: AppDatabase, api: APIClient, remoteConfig: RemoteConfig) {
            self.database = database
            self.api = api
            self.remoteConfig = remoteConfig
        }
    }
}

// MARK: - Data types

extension MainActorApp {
    package final class ProductCache: Sendable {
        init() {}
    }

    package struct ProductMapper: Sendable {
        package let formatter: PriceFormatter
    }

    package final class ProductRepository: Sendable {
        package let api: APIClient
        package let mapper: ProductMapper
        package let cache: ProductCache

        init(api: APIClient, mapper: ProductMapper, cache: ProductCache) {
            self.api = api
            self.mapper = mapper
            self.cache = cache
        }
    }

    package final class CategoryRepository: Sendable {
        package let api: APIClient

        init(api: APIClient) {
            self.api = api
        }
    }

    package final class CartStore: Sendable {
        package let preferences: PreferencesStore

        init(preferences: PreferencesStore) {
            self.preferences = preferences
        }
    }

    package final class CartRepository: Sendable {
        package let store: CartStore
        package let api: APIClient

        init(store: CartStore, api: APIClient) {
            self.store = store
            self.api = api
        }
    }

    package final class PricingService: Sendable {
        package let formatter: PriceFormatter
        package let products: ProductRepository
        package let flags: FeatureFlags

        init(formatter: PriceFormatter, products: ProductRepository, flags: FeatureFlags) {
            self.formatter = formatter
            self.products = products
            self.flags = flags
        }
    }

    package final class DiscountEngine: Sendable {
        package let pricing: PricingService
        package let flags: FeatureFlags

        init(pricing: PricingService, flags: FeatureFlags) {
            self.pricing = pricing
            self.flags = flags
        }
    }

    package final class InventoryService: Sendable {
        package let products: ProductRepository
        package let api: APIClient

        init(products: ProductRepository, api: APIClient) {
            self.products = products
            self.api = api
        }
    }

    package final class OrderRepository: Sendable {
        package let api: APIClient
        package let credentials: CredentialStore

        init(api: APIClient, credentials: CredentialStore) {
            self.api = api
            self.credentials = credentials
        }
    }

    package final class PaymentGateway: Sendable, PaymentProcessing {
        package let api: APIClient
        package let signer: RequestSigner

        init(api: APIClient, signer: RequestSigner) {
            self.api = api
            self.signer = signer
        }
    }

    package final class CheckoutService: Sendable {
        package let cart: CartRepository
        package let pricing: PricingService
        package let discounts: DiscountEngine
        package let payments: any PaymentProcessing
        package let orders: OrderRepository
        package let events: any EventTracking

        init(
            cart: CartRepository, pricing: PricingService, discounts: DiscountEngine, payments: any
            PaymentProcessing, orders: OrderRepository, events: any EventTracking
        ) {
            self.cart = cart
            self.pricing = pricing
            self.discounts = discounts
            self.payments = payments
            self.orders = orders
            self.events = events
        }
    }

    package final class UserRepository: Sendable {
        package let api: APIClient
        package let credentials: CredentialStore

        init(api: APIClient, credentials: CredentialStore) {
            self.api = api
            self.credentials = credentials
        }
    }

    package final class AuthService: Sendable, Authenticating {
        package let users: UserRepository
        package let credentials: CredentialStore
        package let events: any EventTracking

        init(users: UserRepository, credentials: CredentialStore, events: any EventTracking) {
            self.users = users
            self.credentials = credentials
            self.events = events
        }
    }

    package final class SessionManager: Sendable {
        package let auth: any Authenticating
        package let preferences: PreferencesStore

        init(auth: any Authenticating, preferences: PreferencesStore) {
            self.auth = auth
            self.preferences = preferences
        }
    }

    package final class ReviewRepository: Sendable {
        package let api: APIClient

        init(api: APIClient) {
            self.api = api
        }
    }

    package final class FavoritesStore: Sendable {
        package let preferences: PreferencesStore

        init(preferences: PreferencesStore) {
            self.preferences = preferences
        }
    }

    package final class RecommendationService: Sendable {
        package let products: ProductRepository
        package let favorites: FavoritesStore
        package let events: any EventTracking

        init(products: ProductRepository, favorites: FavoritesStore, events: any EventTracking) {
            self.products = products
            self.favorites = favorites
            self.events = events
        }
    }

    package final class SearchService: Sendable {
        package let products: ProductRepository
        package let categories: CategoryRepository

        init(products: ProductRepository, categories: CategoryRepository) {
            self.products = products
            self.categories = categories
        }
    }

    package final class AddressBook: Sendable {
        package let users: UserRepository

        init(users: UserRepository) {
            self.users = users
        }
    }

    package final class ShippingEstimator: Sendable {
        package let addresses: AddressBook
        package let clock: SystemClock
        package let api: APIClient

        init(addresses: AddressBook, clock: SystemClock, api: APIClient) {
            self.addresses = addresses
            self.clock = clock
            self.api = api
        }
    }

    package final class NotificationClient: Sendable {
        package let api: APIClient

        init(api: APIClient) {
            self.api = api
        }
    }

    package final class PushRegistrar: Sendable {
        package let notifications: NotificationClient
        package let credentials: CredentialStore

        init(notifications: NotificationClient, credentials: CredentialStore) {
            self.notifications = notifications
            self.credentials = credentials
        }
    }

    package final class OrderTracker: Sendable {
        package let orders: OrderRepository
        package let clock: SystemClock
        package let notifications: NotificationClient

        init(orders: OrderRepository, clock: SystemClock, notifications: NotificationClient) {
            self.orders = orders
            self.clock = clock
            self.notifications = notifications
        }
    }

    package struct ReceiptRenderer: Sendable {
        package let formatter: PriceFormatter
        package let dates: DateFormatting
        package let localizer: Localizer
    }

    package struct ShareLinkBuilder: Sendable {
        package let configuration: AppConfiguration
    }

    package struct DeepLinkParser: Sendable {
        package let configuration: AppConfiguration
    }

    package struct ProductQuery: Sendable {
        package let term: String
        package let page: Int
        package let search: SearchService
    }

    package struct PriceQuote: Sendable {
        package let productID: String
        package let quantity: Int
        package let coupon: String?
        package let pricing: PricingService
        package let discounts: DiscountEngine
    }

    package struct ShareLink: Sendable {
        package let productID: String
        package let builder: ShareLinkBuilder
    }

    package struct TrackingSnapshot: Sendable {
        package let orderID: String
        package let carrier: String
        package let trackingNumber: String
        package let eta: Int?
        package let signed: Bool
        package let tracker: OrderTracker
    }
}

// MARK: - Feature types

extension MainActorApp {
    /// A generic view model, registered for one item type (`DetailViewModel<Product>`).
    @MainActor
    package final class DetailViewModel<Item: Hashable & Sendable> {
        package let product: Item
        package let detail: ProductDetailViewModel
        package let quote: PriceQuote
        package let share: ShareLink
        package let coordinator: CatalogCoordinator

        init(
            product: Item, detail: ProductDetailViewModel, quote: PriceQuote, share: ShareLink,
            coordinator: CatalogCoordinator
        ) {
            self.product = product
            self.detail = detail
            self.quote = quote
            self.share = share
            self.coordinator = coordinator
        }
    }

    /// The navigation state a plain factory builds from main-actor routers.
    package struct NavigationState: Sendable {
        package let router: AppRouter
        package let tabs: TabRouter
    }

    @MainActor
    package final class AppRouter: Routing {
        package var path: [String] = []
        package func push(_ screen: String) { path.append(screen) }

        init() {}
    }

    @MainActor
    package final class TabRouter {
        package let router: AppRouter
        package var selected = "home"

        init(router: AppRouter) {
            self.router = router
        }
    }

    @MainActor
    package final class ToastPresenter: ToastPresenting {
        package var messages: [String] = []
        package func show(_ message: String) { messages.append(message) }

        init() {}
    }

    @MainActor
    package final class AlertPresenter: AlertPresenting {
        package let localizer: Localizer

        init(localizer: Localizer) {
            self.localizer = localizer
        }
    }

    /// `.graph`: one per screen resolved, shared by the screen's view model and coordinators.
    @MainActor
    package final class SheetCoordinator {
        package let router: AppRouter

        init(router: AppRouter) {
            self.router = router
        }
    }

    @MainActor
    package final class ThemeManager: ThemeProviding {
        package let preferences: PreferencesStore
        package var theme = "system"

        init(preferences: PreferencesStore) {
            self.preferences = preferences
        }
    }

    @MainActor
    package final class AppCoordinator {
        package let router: AppRouter
        package let tabs: TabRouter
        package let session: SessionManager

        init(router: AppRouter, tabs: TabRouter, session: SessionManager) {
            self.router = router
            self.tabs = tabs
            self.session = session
        }
    }

    @MainActor
    package final class DeepLinkHandler: DeepLinkHandling {
        package let router: AppRouter
        package let parser: DeepLinkParser
        package let coordinator: AppCoordinator

        init(router: AppRouter, parser: DeepLinkParser, coordinator: AppCoordinator) {
            self.router = router
            self.parser = parser
            self.coordinator = coordinator
        }
    }

    @MainActor
    package final class ScenePhaseObserver {
        package let events: any EventTracking

        init(events: any EventTracking) {
            self.events = events
        }
    }

    @MainActor
    package final class KeyboardObserver {
        init() {}
    }

    @MainActor
    package final class ImagePrefetcher {
        package let loader: ImageLoader

        init(loader: ImageLoader) {
            self.loader = loader
        }
    }

    @MainActor
    package final class RootViewModel {
        package let coordinator: AppCoordinator
        package let tabs: TabRouter
        package let session: SessionManager
        package let theme: ThemeManager

        init(coordinator: AppCoordinator, tabs: TabRouter, session: SessionManager, theme: ThemeManager) {
            self.coordinator = coordinator
            self.tabs = tabs
            self.session = session
            self.theme = theme
        }
    }

    /// Its tabs are the view models registered as `TabContent`, by name.
    @MainActor
    package final class TabBarViewModel {
        package let tabs: TabRouter
        package let cartBadge: any CartBadgeProviding
        package let contents: [any TabContent]
        package static let tabNames = ["home", "catalog", "cart", "orders", "account"]

        init(tabs: TabRouter, cartBadge: any CartBadgeProviding, contents: [any TabContent]) {
            self.tabs = tabs
            self.cartBadge = cartBadge
            self.contents = contents
        }
    }

    @MainActor
    package final class LaunchScreenViewModel {
        package let build: BuildInfo
        package let theme: any ThemeProviding

        init(build: BuildInfo, theme: any ThemeProviding) {
            self.build = build
            self.theme = theme
        }
    }

    @MainActor
    package final class OnboardingCoordinator {
        package let router: any Routing
        package let preferences: PreferencesStore

        init(router: any Routing, preferences: PreferencesStore) {
            self.router = router
            self.preferences = preferences
        }
    }

    @MainActor
    package final class OnboardingViewModel {
        package let coordinator: OnboardingCoordinator
        package let localizer: Localizer

        init(coordinator: OnboardingCoordinator, localizer: Localizer) {
            self.coordinator = coordinator
            self.localizer = localizer
        }
    }

    @MainActor
    package final class LoginViewModel {
        package let auth: any Authenticating
        package let alerts: any AlertPresenting
        package let coordinator: AppCoordinator

        init(auth: any Authenticating, alerts: any AlertPresenting, coordinator: AppCoordinator) {
            self.auth = auth
            self.alerts = alerts
            self.coordinator = coordinator
        }
    }

    @MainActor
    package final class HomeCoordinator {
        package let app: AppCoordinator
        package let sheets: SheetCoordinator

        init(app: AppCoordinator, sheets: SheetCoordinator) {
            self.app = app
            self.sheets = sheets
        }
    }

    @MainActor
    package final class HomeViewModel: TabContent {
        package let coordinator: HomeCoordinator
        package let recommendations: RecommendationService
        package let toasts: any ToastPresenting
        package let prefetcher: ImagePrefetcher
        package let title = "Home"

        init(
            coordinator: HomeCoordinator, recommendations: RecommendationService, toasts: any
            ToastPresenting, prefetcher: ImagePrefetcher
        ) {
            self.coordinator = coordinator
            self.recommendations = recommendations
            self.toasts = toasts
            self.prefetcher = prefetcher
        }
    }

    @MainActor
    package final class BannerCarouselViewModel {
        package let loader: ImageLoader
        package let events: any EventTracking

        init(loader: ImageLoader, events: any EventTracking) {
            self.loader = loader
            self.events = events
        }
    }

    @MainActor
    package final class RecommendationsViewModel {
        package let recommendations: RecommendationService
        package let coordinator: HomeCoordinator

        init(recommendations: RecommendationService, coordinator: HomeCoordinator) {
            self.recommendations = recommendations
            self.coordinator = coordinator
        }
    }

    @MainActor
    package final class PromotionsViewModel {
        package let discounts: DiscountEngine
        package let flags: FeatureFlags

        init(discounts: DiscountEngine, flags: FeatureFlags) {
            self.discounts = discounts
            self.flags = flags
        }
    }

    @MainActor
    package final class CatalogCoordinator {
        package let app: AppCoordinator
        package let sheets: SheetCoordinator

        init(app: AppCoordinator, sheets: SheetCoordinator) {
            self.app = app
            self.sheets = sheets
        }
    }

    @MainActor
    package final class CatalogViewModel: TabContent {
        package let coordinator: CatalogCoordinator
        package let categories: CategoryRepository
        package let search: SearchService
        package let title = "Catalog"

        init(coordinator: CatalogCoordinator, categories: CategoryRepository, search: SearchService) {
            self.coordinator = coordinator
            self.categories = categories
            self.search = search
        }
    }

    @MainActor
    package final class SearchCoordinator {
        package let catalog: CatalogCoordinator

        init(catalog: CatalogCoordinator) {
            self.catalog = catalog
        }
    }

    @MainActor
    package final class SearchViewModel {
        package let coordinator: SearchCoordinator
        package let search: SearchService
        package let keyboard: KeyboardObserver

        init(coordinator: SearchCoordinator, search: SearchService, keyboard: KeyboardObserver) {
            self.coordinator = coordinator
            self.search = search
            self.keyboard = keyboard
        }
    }

    @MainActor
    package final class CartCoordinator {
        package let app: AppCoordinator
        package let sheets: SheetCoordinator

        init(app: AppCoordinator, sheets: SheetCoordinator) {
            self.app = app
            self.sheets = sheets
        }
    }

    @MainActor
    package final class CartViewModel: TabContent, CartBadgeProviding {
        package let cart: CartRepository
        package let pricing: PricingService
        package let toasts: ToastPresenter
        package let coordinator: CartCoordinator
        package let title = "Cart"
        package var badgeCount = 0

        init(cart: CartRepository, pricing: PricingService, toasts: ToastPresenter, coordinator: CartCoordinator) {
            self.cart = cart
            self.pricing = pricing
            self.toasts = toasts
            self.coordinator = coordinator
        }
    }

    @MainActor
    package final class CheckoutCoordinator {
        package let cart: CartCoordinator
        package let sheets: SheetCoordinator
        package let alerts: AlertPresenter

        init(cart: CartCoordinator, sheets: SheetCoordinator, alerts: AlertPresenter) {
            self.cart = cart
            self.sheets = sheets
            self.alerts = alerts
        }
    }

    @MainActor
    package final class CheckoutViewModel {
        package let coordinator: CheckoutCoordinator
        package let sheets: SheetCoordinator
        package let checkout: CheckoutService
        package let shipping: ShippingEstimator
        package let receipts: ReceiptRenderer

        init(
            coordinator: CheckoutCoordinator, sheets: SheetCoordinator, checkout: CheckoutService, shipping:
            ShippingEstimator, receipts: ReceiptRenderer
        ) {
            self.coordinator = coordinator
            self.sheets = sheets
            self.checkout = checkout
            self.shipping = shipping
            self.receipts = receipts
        }
    }

    @MainActor
    package final class OrdersCoordinator {
        package let app: AppCoordinator

        init(app: AppCoordinator) {
            self.app = app
        }
    }

    @MainActor
    package final class OrdersViewModel: TabContent {
        package let coordinator: OrdersCoordinator
        package let orders: OrderRepository
        package let tracker: OrderTracker
        package let title = "Orders"

        init(coordinator: OrdersCoordinator, orders: OrderRepository, tracker: OrderTracker) {
            self.coordinator = coordinator
            self.orders = orders
            self.tracker = tracker
        }
    }

    @MainActor
    package final class AccountCoordinator {
        package let app: AppCoordinator
        package let sheets: SheetCoordinator

        init(app: AppCoordinator, sheets: SheetCoordinator) {
            self.app = app
            self.sheets = sheets
        }
    }

    @MainActor
    package final class AccountViewModel: TabContent {
        package let coordinator: AccountCoordinator
        package let session: SessionManager
        package let users: UserRepository
        package let title = "Account"

        init(coordinator: AccountCoordinator, session: SessionManager, users: UserRepository) {
            self.coordinator = coordinator
            self.session = session
            self.users = users
        }
    }

    @MainActor
    package final class SettingsViewModel {
        package let coordinator: AccountCoordinator
        package let theme: ThemeManager
        package let preferences: PreferencesStore
        package let build: BuildInfo

        init(
            coordinator: AccountCoordinator, theme: ThemeManager, preferences: PreferencesStore, build:
            BuildInfo
        ) {
            self.coordinator = coordinator
            self.theme = theme
            self.preferences = preferences
            self.build = build
        }
    }

    @MainActor
    package final class FavoritesViewModel {
        package let favorites: FavoritesStore
        package let products: ProductRepository
        package let coordinator: AccountCoordinator

        init(favorites: FavoritesStore, products: ProductRepository, coordinator: AccountCoordinator) {
            self.favorites = favorites
            self.products = products
            self.coordinator = coordinator
        }
    }

    @MainActor
    package final class NotificationsViewModel {
        package let notifications: NotificationClient
        package let push: PushRegistrar
        package let coordinator: AccountCoordinator

        init(notifications: NotificationClient, push: PushRegistrar, coordinator: AccountCoordinator) {
            self.notifications = notifications
            self.push = push
            self.coordinator = coordinator
        }
    }

    @MainActor
    package final class SupportCoordinator {
        package let account: AccountCoordinator
        package let router: any Routing

        init(account: AccountCoordinator, router: any Routing) {
            self.account = account
            self.router = router
        }
    }

    @MainActor
    package final class HelpCenterViewModel {
        package let coordinator: SupportCoordinator
        package let localizer: Localizer
        package let api: APIClient

        init(coordinator: SupportCoordinator, localizer: Localizer, api: APIClient) {
            self.coordinator = coordinator
            self.localizer = localizer
            self.api = api
        }
    }

    /// `.container` with a `String` argument: one instance per product ID.
    @MainActor
    package final class ProductDetailViewModel {
        package let productID: String
        package let coordinator: CatalogCoordinator
        package let inventory: InventoryService
        package let pricing: PricingService

        init(
            productID: String, coordinator: CatalogCoordinator, inventory: InventoryService, pricing:
            PricingService
        ) {
            self.productID = productID
            self.coordinator = coordinator
            self.inventory = inventory
            self.pricing = pricing
        }
    }

    @MainActor
    package final class CategoryViewModel {
        package let categoryID: String
        package let page: Int?
        package let query: ProductQuery
        package let categories: CategoryRepository
        package let coordinator: CatalogCoordinator

        init(
            categoryID: String, page: Int?, query: ProductQuery, categories: CategoryRepository,
            coordinator: CatalogCoordinator
        ) {
            self.categoryID = categoryID
            self.page = page
            self.query = query
            self.categories = categories
            self.coordinator = coordinator
        }
    }

    @MainActor
    package final class SearchResultsViewModel {
        package let term: String
        package let page: Int
        package let sort: String?
        package let query: ProductQuery
        package let coordinator: SearchCoordinator

        init(term: String, page: Int, sort: String?, query: ProductQuery, coordinator: SearchCoordinator) {
            self.term = term
            self.page = page
            self.sort = sort
            self.query = query
            self.coordinator = coordinator
        }
    }

    @MainActor
    package final class OrderDetailViewModel {
        package let orderID: String
        package let tracking: TrackingSnapshot
        package let orders: OrderRepository
        package let coordinator: OrdersCoordinator

        init(orderID: String, tracking: TrackingSnapshot, orders: OrderRepository, coordinator: OrdersCoordinator) {
            self.orderID = orderID
            self.tracking = tracking
            self.orders = orders
            self.coordinator = coordinator
        }
    }

    @MainActor
    package final class ReviewComposerViewModel {
        package let productID: String
        package let rating: Int
        package let draft: String?
        package let reviews: ReviewRepository
        package let toasts: any ToastPresenting
        package let coordinator: CatalogCoordinator

        init(
            productID: String, rating: Int, draft: String?, reviews: ReviewRepository, toasts: any
            ToastPresenting, coordinator: CatalogCoordinator
        ) {
            self.productID = productID
            self.rating = rating
            self.draft = draft
            self.reviews = reviews
            self.toasts = toasts
            self.coordinator = coordinator
        }
    }

    /// The deepest root: -> CheckoutViewModel -> CheckoutCoordinator -> CartCoordinator ->
    /// AppCoordinator -> SessionManager -> Authenticating -> AuthService -> UserRepository -> APIClient
    /// -> RequestSigner -> CredentialStore -> PreferencesStore -> AppConfiguration.
    @MainActor
    package final class CheckoutStepViewModel {
        package let step: Int
        package let cartID: String
        package let checkout: CheckoutViewModel
        package let coordinator: CheckoutCoordinator

        init(step: Int, cartID: String, checkout: CheckoutViewModel, coordinator: CheckoutCoordinator) {
            self.step = step
            self.cartID = cartID
            self.checkout = checkout
            self.coordinator = coordinator
        }
    }

    @MainActor
    package final class AddressEditorViewModel {
        package let addressID: String?
        package let country: String
        package let isDefault: Bool
        package let label: String?
        package let addresses: AddressBook
        package let shipping: ShippingEstimator
        package let alerts: any AlertPresenting

        init(
            addressID: String?, country: String, isDefault: Bool, label: String?, addresses: AddressBook,
            shipping: ShippingEstimator, alerts: any AlertPresenting
        ) {
            self.addressID = addressID
            self.country = country
            self.isDefault = isDefault
            self.label = label
            self.addresses = addresses
            self.shipping = shipping
            self.alerts = alerts
        }
    }

    @MainActor
    package final class PaymentSheetViewModel {
        package let amount: Int
        package let currency: String
        package let orderID: String
        package let savedCardID: String?
        package let allowsExpressPay: Bool
        package let payments: any PaymentProcessing
        package let sheets: SheetCoordinator
        package let formatter: PriceFormatter

        init(
            amount: Int, currency: String, orderID: String, savedCardID: String?, allowsExpressPay: Bool,
            payments: any PaymentProcessing, sheets: SheetCoordinator, formatter: PriceFormatter
        ) {
            self.amount = amount
            self.currency = currency
            self.orderID = orderID
            self.savedCardID = savedCardID
            self.allowsExpressPay = allowsExpressPay
            self.payments = payments
            self.sheets = sheets
            self.formatter = formatter
        }
    }

    @MainActor
    package final class ProductGalleryViewModel {
        package let productID: String
        package let imageIDs: [String]
        package let startIndex: Int
        package let zoom: Double
        package let showsThumbnails: Bool
        package let caption: String?
        package let image: ImageRequest
        package let prefetcher: ImagePrefetcher
        package let sheets: SheetCoordinator

        init(
            productID: String, imageIDs: [String], startIndex: Int, zoom: Double, showsThumbnails: Bool,
            caption: String?, image: ImageRequest, prefetcher: ImagePrefetcher, sheets: SheetCoordinator
        ) {
            self.productID = productID
            self.imageIDs = imageIDs
            self.startIndex = startIndex
            self.zoom = zoom
            self.showsThumbnails = showsThumbnails
            self.caption = caption
            self.image = image
            self.prefetcher = prefetcher
            self.sheets = sheets
        }
    }

    @MainActor
    package final class ShippingOptionsViewModel {
        package let orderID: String
        package let street: String
        package let city: String
        package let postalCode: String
        package let country: String
        package let express: Bool
        package let note: String?
        package let estimator: ShippingEstimator
        package let coordinator: CheckoutCoordinator

        init(
            orderID: String, street: String, city: String, postalCode: String, country: String, express:
            Bool, note: String?, estimator: ShippingEstimator, coordinator: CheckoutCoordinator
        ) {
            self.orderID = orderID
            self.street = street
            self.city = city
            self.postalCode = postalCode
            self.country = country
            self.express = express
            self.note = note
            self.estimator = estimator
            self.coordinator = coordinator
        }
    }

    @MainActor
    package final class FilterSheetViewModel {
        package let categoryID: String
        package let minPrice: Int?
        package let maxPrice: Int?
        package let brand: String?
        package let inStockOnly: Bool
        package let sort: String
        package let page: Int
        package let pageSize: Int
        package let query: ProductQuery
        package let inventory: InventoryService
        package let sheets: SheetCoordinator

        init(
            categoryID: String, minPrice: Int?, maxPrice: Int?, brand: String?, inStockOnly: Bool, sort:
            String, page: Int, pageSize: Int, query: ProductQuery, inventory: InventoryService, sheets:
            SheetCoordinator
        ) {
            self.categoryID = categoryID
            self.minPrice = minPrice
            self.maxPrice = maxPrice
            self.brand = brand
            self.inStockOnly = inStockOnly
            self.sort = sort
            self.page = page
            self.pageSize = pageSize
            self.query = query
            self.inventory = inventory
            self.sheets = sheets
        }
    }

    @MainActor
    package final class SalesReportViewModel {
        package let reportID: String
        package let year: Int
        package let month: Int
        package let day: Int?
        package let region: String
        package let currency: String
        package let includesTax: Bool
        package let includesRefunds: Bool
        package let title: String?
        package let orders: OrderRepository
        package let formatter: PriceFormatter
        package let dates: DateFormatting

        init(
            reportID: String, year: Int, month: Int, day: Int?, region: String, currency: String,
            includesTax: Bool, includesRefunds: Bool, title: String?, orders: OrderRepository, formatter:
            PriceFormatter, dates: DateFormatting
        ) {
            self.reportID = reportID
            self.year = year
            self.month = month
            self.day = day
            self.region = region
            self.currency = currency
            self.includesTax = includesTax
            self.includesRefunds = includesRefunds
            self.title = title
            self.orders = orders
            self.formatter = formatter
            self.dates = dates
        }
    }

    /// `.weak`, per thread ID: kept while a screen shows it.
    @MainActor
    package final class ChatViewModel {
        package let threadID: String
        package let notifications: NotificationClient
        package let users: UserRepository

        init(threadID: String, notifications: NotificationClient, users: UserRepository) {
            self.threadID = threadID
            self.notifications = notifications
            self.users = users
        }
    }

    @MainActor
    package final class ProfileViewModel {
        package let userID: String?
        package let users: UserRepository
        package let session: SessionManager
        package let coordinator: AccountCoordinator

        init(userID: String?, users: UserRepository, session: SessionManager, coordinator: AccountCoordinator) {
            self.userID = userID
            self.users = users
            self.session = session
            self.coordinator = coordinator
        }
    }

    @MainActor
    package final class WishlistItemViewModel {
        package let itemID: String
        package let position: Int
        package let favorites: FavoritesStore
        package let products: ProductRepository

        init(itemID: String, position: Int, favorites: FavoritesStore, products: ProductRepository) {
            self.itemID = itemID
            self.position = position
            self.favorites = favorites
            self.products = products
        }
    }

    @MainActor
    package final class CouponViewModel {
        package let code: String
        package let cartTotal: Int
        package let expiresIn: Int?
        package let discounts: DiscountEngine
        package let toasts: any ToastPresenting

        init(
            code: String, cartTotal: Int, expiresIn: Int?, discounts: DiscountEngine, toasts: any
            ToastPresenting
        ) {
            self.code = code
            self.cartTotal = cartTotal
            self.expiresIn = expiresIn
            self.discounts = discounts
            self.toasts = toasts
        }
    }

    @MainActor
    package final class NotificationRowViewModel {
        package let notificationID: String
        package let isRead: Bool
        package let notifications: NotificationClient
        package let router: any Routing

        init(notificationID: String, isRead: Bool, notifications: NotificationClient, router: any Routing) {
            self.notificationID = notificationID
            self.isRead = isRead
            self.notifications = notifications
            self.router = router
        }
    }

    @MainActor
    package final class OrderRowViewModel {
        package let orderID: String
        package let index: Int
        package let isHighlighted: Bool
        package let badge: String?
        package let detail: OrderDetailViewModel
        package let formatter: PriceFormatter

        init(
            orderID: String, index: Int, isHighlighted: Bool, badge: String?, detail: OrderDetailViewModel,
            formatter: PriceFormatter
        ) {
            self.orderID = orderID
            self.index = index
            self.isHighlighted = isHighlighted
            self.badge = badge
            self.detail = detail
            self.formatter = formatter
        }
    }

    @MainActor
    package final class ProductCardViewModel {
        package let product: Product
        package let style: String?
        package let formatter: PriceFormatter
        package let images: ImageLoader

        init(product: Product, style: String?, formatter: PriceFormatter, images: ImageLoader) {
            self.product = product
            self.style = style
            self.formatter = formatter
            self.images = images
        }
    }

    /// What the app awaits before showing its first screen: the launch services, and the root view
    /// model (resolved with `await`, on the main actor).
    package final class AppLaunch: Sendable {
        package let database: AppDatabase
        package let search: SearchIndex
        package let sync: SyncEngine
        package let remoteConfig: RemoteConfig
        package let root: RootViewModel
        package let deepLinks: DeepLinkHandler

        package init(
            database: AppDatabase, search: SearchIndex, sync: SyncEngine, remoteConfig: RemoteConfig, root:
            RootViewModel, deepLinks: DeepLinkHandler
        ) {
            self.database = database
            self.search = search
            self.sync = sync
            self.remoteConfig = remoteConfig
            self.root = root
            self.deepLinks = deepLinks
        }
    }
}

// MARK: - Roots

extension MainActorApp {
    /// Every key the app registers, in registration order (each `.implements` forward after its
    /// registration), with sample arguments for those that take them.
    package static let roots: [Root] = [
        root(AppConfiguration.self, .plain),
        root(BuildInfo.self, .plain),
        root(LogSink.self, .plain),
        root(AppLogger.self, .plain),
        root(SystemClock.self, .plain),
        root(DateFormatting.self, .plain),
        root(PriceFormatter.self, .plain),
        root(Localizer.self, .plain),
        root(KeychainStore.self, .plain),
        root(PreferencesStore.self, .plain),
        root(CredentialStore.self, .plain),
        root(Reachability.self, .plain),
        root(RequestSigner.self, .plain),
        root(HTTPTransport.self, .plain),
        root(RetryPolicy.self, .plain),
        root(APIClient.self, .plain),
        root(ImageCache.self, .plain),
        root(ImageLoader.self, .plain),
        root(AnalyticsClient.self, .plain),
        root((any EventTracking).self, .implements),
        root(CrashReporter.self, .plain),
        root(FeatureFlags.self, .plain),
        root(DatabaseURL.self, .plain),
        root(ImageRequest.self, .plain, arguments: "https://img.example/p-1.png", 320, 240, 2.0, true, String?.none),
        root(AppDatabase.self, .async),
        root((any DatabaseReading).self, .implements),
        root(SearchIndex.self, .async),
        root(RemoteConfig.self, .async),
        root(SyncEngine.self, .async),
        root(ProductCache.self, .plain),
        root(ProductMapper.self, .plain),
        root(ProductRepository.self, .plain),
        root(CategoryRepository.self, .plain),
        root(CartStore.self, .plain),
        root(CartRepository.self, .plain),
        root(PricingService.self, .plain),
        root(DiscountEngine.self, .plain),
        root(InventoryService.self, .plain),
        root(OrderRepository.self, .plain),
        root(PaymentGateway.self, .plain),
        root((any PaymentProcessing).self, .implements),
        root(CheckoutService.self, .plain),
        root(UserRepository.self, .plain),
        root(AuthService.self, .plain),
        root((any Authenticating).self, .implements),
        root(SessionManager.self, .plain),
        root(ReviewRepository.self, .plain),
        root(FavoritesStore.self, .plain),
        root(RecommendationService.self, .plain),
        root(SearchService.self, .plain),
        root(AddressBook.self, .plain),
        root(ShippingEstimator.self, .plain),
        root(NotificationClient.self, .plain),
        root(PushRegistrar.self, .plain),
        root(OrderTracker.self, .plain),
        root(ReceiptRenderer.self, .plain),
        root(ShareLinkBuilder.self, .plain),
        root(DeepLinkParser.self, .plain),
        root(ProductQuery.self, .plain, arguments: "oat", 1),
        root(PriceQuote.self, .plain, arguments: "p-1", 2, "SPRING" as String?),
        root(ShareLink.self, .plain, arguments: "p-1"),
        root(TrackingSnapshot.self, .plain, arguments: "o-7", "DHL", "JD0142", Int?.none, false),
        root(AppRouter.self, .mainActor),
        root(TabRouter.self, .mainActor),
        root(ToastPresenter.self, .mainActor),
        root(AlertPresenter.self, .mainActor),
        root(SheetCoordinator.self, .mainActor),
        root(ThemeManager.self, .mainActor),
        root(AppCoordinator.self, .mainActor),
        root(DeepLinkHandler.self, .mainActor),
        root(ScenePhaseObserver.self, .mainActor),
        root(KeyboardObserver.self, .mainActor),
        root(ImagePrefetcher.self, .mainActor),
        root(RootViewModel.self, .mainActor),
        root(TabBarViewModel.self, .mainActor),
        root(LaunchScreenViewModel.self, .mainActor),
        root(OnboardingCoordinator.self, .mainActor),
        root(OnboardingViewModel.self, .mainActor),
        root(LoginViewModel.self, .mainActor),
        root(HomeCoordinator.self, .mainActor),
        root(HomeViewModel.self, .mainActor),
        root(BannerCarouselViewModel.self, .mainActor),
        root(RecommendationsViewModel.self, .mainActor),
        root(PromotionsViewModel.self, .mainActor),
        root(CatalogCoordinator.self, .mainActor),
        root(CatalogViewModel.self, .mainActor),
        root(SearchCoordinator.self, .mainActor),
        root(SearchViewModel.self, .mainActor),
        root(CartCoordinator.self, .mainActor),
        root(CartViewModel.self, .mainActor),
        root((any CartBadgeProviding).self, .implements),
        root(CheckoutCoordinator.self, .mainActor),
        root(CheckoutViewModel.self, .mainActor),
        root(OrdersCoordinator.self, .mainActor),
        root(OrdersViewModel.self, .mainActor),
        root(AccountCoordinator.self, .mainActor),
        root(AccountViewModel.self, .mainActor),
        root(SettingsViewModel.self, .mainActor),
        root(FavoritesViewModel.self, .mainActor),
        root(NotificationsViewModel.self, .mainActor),
        root(SupportCoordinator.self, .mainActor),
        root(HelpCenterViewModel.self, .mainActor),
        root(ProductDetailViewModel.self, .mainActor, arguments: "p-1"),
        root(DetailViewModel<Product>.self, .mainActor, arguments: Product(id: "p-1", name: "Oat milk", price: 189)),
        root(CategoryViewModel.self, .mainActor, arguments: "dairy", Int?.none),
        root(SearchResultsViewModel.self, .mainActor, arguments: "oat", 2, "price" as String?),
        root(OrderDetailViewModel.self, .mainActor, arguments: "o-7"),
        root(ReviewComposerViewModel.self, .mainActor, arguments: "p-1", 5, String?.none),
        root(CheckoutStepViewModel.self, .mainActor, arguments: 1, "c-3"),
        root(AddressEditorViewModel.self, .mainActor, arguments: "a-1" as String?, "DE", true, String?.none),
        root(PaymentSheetViewModel.self, .mainActor, arguments: 1299, "EUR", "o-7", String?.none, true),
        root(
            ProductGalleryViewModel.self, .mainActor,
            arguments: "p-1", ["i-1", "i-2"], 0, 1.5, true, "Front" as String?),
        root(
            ShippingOptionsViewModel.self, .mainActor,
            arguments: "o-7", "Hauptstr. 1", "Berlin", "10115", "DE", false, String?.none),
        root(
            FilterSheetViewModel.self, .mainActor,
            arguments: "dairy", 100 as Int?, Int?.none, "Oatly" as String?, true, "price", 1, 40),
        root(
            SalesReportViewModel.self, .mainActor,
            arguments: "r-2024", 2024, 5, Int?.none, "EU", "EUR", true, false, "May" as String?),
        root(ChatViewModel.self, .mainActor, arguments: "t-1"),
        root(ProfileViewModel.self, .mainActor, arguments: String?.none),
        root(WishlistItemViewModel.self, .mainActor, arguments: "w-1", 0),
        root(CouponViewModel.self, .mainActor, arguments: "SPRING", 4200, 3600 as Int?),
        root(NotificationRowViewModel.self, .mainActor, arguments: "n-1", false),
        root(OrderRowViewModel.self, .mainActor, arguments: "o-7", 0, false, "new" as String?),
        root(
            ProductCardViewModel.self, .mainActor,
            arguments: Product(id: "p-2", name: "Rye bread", price: 349), "compact" as String?),
        root(AppLaunch.self, .async),
        root((any TabContent).self, name: "home", .forwarding),
        root((any TabContent).self, name: "catalog", .forwarding),
        root((any TabContent).self, name: "cart", .forwarding),
        root((any TabContent).self, name: "orders", .forwarding),
        root((any TabContent).self, name: "account", .forwarding),
        root((any Routing).self, .forwarding),
        root((any ToastPresenting).self, .forwarding),
        root((any AlertPresenting).self, .forwarding),
        root((any ThemeProviding).self, .forwarding),
        root((any DeepLinkHandling).self, .forwarding),
        root(NavigationState.self, .forwarding),
    ]
}

// MARK: - In-memory launch services

extension MainActorApp {
    /// The services the app awaits at launch, replaced by in-memory ones that a synchronous
    /// resolve builds: the same keys (the last registration of a key wins), registered with
    /// `register`. `AppLaunch` resolves main-actor view models, so it resolves on the main actor
    /// only, like the forwarding registrations.
    package struct InMemoryLaunchModule: Module {
        package init() {}

        package func register(in container: Container) {
            container.register(AppDatabase.self) { r in try AppDatabase(url: r.resolve(), logger: r.resolve()) }
                .scope(.container)
                .implements((any DatabaseReading).self)
            container.register(SearchIndex.self) { r in try SearchIndex(database: r.resolve(), logger: r.resolve()) }
                .scope(.container)
            container.register(RemoteConfig.self) { r in try RemoteConfig(api: r.resolve(), flags: r.resolve()) }
                .scope(.container)
            container.register(SyncEngine.self) { r in
                try SyncEngine(database: r.resolve(), api: r.resolve(), remoteConfig: r.resolve())
            }
            .scope(.container)
            container.register(AppLaunch.self) { r in
                try AppLaunch(
                    database: r.resolve(), search: r.resolve(), sync: r.resolve(), remoteConfig: r.resolve(),
                    root: r.resolve(), deepLinks: r.resolve())
            }
            .scope(.container)
        }
    }
}

// MARK: - Resolving every root

extension MainActorApp {
    /// One registered key, and how to resolve it (with its sample arguments, if it takes any).
    package struct Root: Sendable, CustomStringConvertible {
        /// How the key is registered, which says where it resolves.
        package enum Kind: Sendable, CaseIterable {
            /// `register`: resolves anywhere.
            case plain
            /// `registerMainActor`: synchronously on the main actor, with `await` anywhere.
            case mainActor
            /// `registerAsync`: with `await`; synchronously too once made, as every one of them is a
            /// `.container` singleton (see ``MainActorApp/launch(_:)``).
            case async
            /// A plain `register` whose factory resolves a main-actor registration: its factory runs
            /// where the resolve runs, so it resolves only on the main actor.
            case forwarding
            /// An `.implements` forward of the registration before it.
            case implements
        }

        package let key: ServiceKey
        package let kind: Kind
        fileprivate let resolveSynchronously: @MainActor @Sendable (any Resolver) throws -> Void
        fileprivate let resolveAwaiting: @Sendable (AsyncResolver) async throws -> Void
        fileprivate let addSample: @Sendable (any SampleSink) -> Void

        /// How many runtime arguments the key takes.
        package var arity: Int { key.argumentTypes.count }

        package var description: String { "\(key)" }
    }

    /// What only an awaiting check can build: the `registerAsync` services, the forward of one
    /// (`DatabaseReading`) and `AppLaunch`, which awaits main-actor view models.
    package static var awaitedKeys: Set<ServiceKey> {
        Set(roots.filter { $0.kind == .async }.map(\.key) + [ServiceKey((any DatabaseReading).self)])
    }

    /// Takes the sample arguments of the roots that need them. A test wraps its
    /// `VerificationSamples` in one: this target does not depend on WiringTestSupport.
    package protocol SampleSink: AnyObject {
        func add<Service, each Argument>(_ serviceType: Service.Type, name: String?, arguments: repeat each Argument)
    }

    /// Gives `sink` the sample arguments of every root that takes arguments.
    package static func addSamples(to sink: any SampleSink) {
        for root in roots where root.key.takesArguments {
            root.addSample(sink)
        }
    }

    /// Opens what the app awaits at launch: every `registerAsync` registration, each a
    /// `.container` singleton, which a synchronous resolve returns from then on.
    package static func launch(_ resolver: AsyncResolver) async throws {
        for root in roots where root.kind == .async {
            try await root.resolveAwaiting(resolver)
        }
    }

    /// Resolves every root synchronously, each in its own resolve, with its sample arguments, as
    /// the app's views do; returns how many it resolved. The `registerAsync` ones resolve only once
    /// ``launch(_:)`` made them, in the same container.
    @MainActor
    package static func resolveEveryRoot(from resolver: any Resolver) throws -> Int {
        for root in roots {
            try root.resolveSynchronously(resolver)
        }
        return roots.count
    }

    /// Resolves every root with `await`, each in its own resolve, with its sample arguments, from
    /// off the main actor (main-actor factories hop there); returns how many it resolved. A
    /// forwarding root's plain factory runs where it is resolved, so it is resolved from the main
    /// actor, still with `await`.
    package static func resolveEveryRootAsync(from resolver: AsyncResolver) async throws -> Int {
        for root in roots {
            try await root.resolveAwaiting(resolver)
        }
        return roots.count
    }

    /// Resolves a root from the main actor, with `await`.
    @MainActor
    private static func resolveOnMainActor<Service>(
        _ serviceType: Service.Type, name: String?, from resolver: AsyncResolver
    ) async throws {
        _ = try await resolver.resolve(serviceType, name: name)
    }

    /// A root that takes no arguments.
    private static func root<Service>(_ serviceType: Service.Type, name: String? = nil, _ kind: Root.Kind) -> Root {
        let resolveAwaiting: @Sendable (AsyncResolver) async throws -> Void
        if kind == .forwarding {
            resolveAwaiting = { r in try await resolveOnMainActor(Service.self, name: name, from: r) }
        } else {
            resolveAwaiting = { r in _ = try await r.resolve(Service.self, name: name) }
        }
        return Root(
            key: ServiceKey(Service.self, name: name), kind: kind,
            resolveSynchronously: { r in _ = try r.resolve(Service.self, name: name) },
            resolveAwaiting: resolveAwaiting, addSample: { _ in })
    }

    /// A root that takes runtime arguments, resolved with `arguments`.
    private static func root<Service, each Argument: Sendable>(
        _ serviceType: Service.Type, name: String? = nil, _ kind: Root.Kind, arguments: repeat each Argument
    ) -> Root {
        let values = (repeat each arguments)
        return Root(
            key: ServiceKey(Service.self, name: name, arguments: repeat (each Argument).self), kind: kind,
            resolveSynchronously: { r in _ = try r.resolve(Service.self, name: name, arguments: repeat each values) },
            resolveAwaiting: { r in
                _ = try await r.resolve(Service.self, name: name, arguments: repeat each values)
            },
            addSample: { sink in sink.add(Service.self, name: name, arguments: repeat each values) })
    }
}
