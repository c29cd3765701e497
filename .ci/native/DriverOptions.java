/*
 * What .ci/native/NativeCheck.java knows of GraalVM's native-image driver (com.oracle.svm.driver, not on Maven
 * Central): how it maps its options onto the builder's, and which META-INF/native-image files it hands the builder.
 * Read off svm.jar 25.0.2 (the @APIOption annotations of its option classes) and the driver's MetaInfFileType.
 */
import java.util.Map;
import java.util.Set;

final class DriverOptions {

    private DriverOptions() {
    }

    /**
     * Driver API options (the @APIOption annotations of svm.jar) -> builder option. A value of "+" or "-" makes a
     * boolean; "=V" a fixed value; "" takes the option's value; the suffix after '|' is appended to each of its
     * comma-separated entries (ClassInitializationOptions' value transformers).
     */
    static final Map<String, String> API_OPTIONS = Map.ofEntries(
            Map.entry("--initialize-at-build-time", "ClassInitialization|:build_time"),
            Map.entry("--initialize-at-run-time", "ClassInitialization|:run_time"),
            Map.entry("--features", "Features"),
            Map.entry("--link-at-build-time", "LinkAtBuildTime"),
            Map.entry("--link-at-build-time-paths", "LinkAtBuildTimePaths"),
            Map.entry("--no-fallback", "FallbackThreshold=0"),
            Map.entry("--auto-fallback", "FallbackThreshold=5"),
            Map.entry("--force-fallback", "FallbackThreshold=10"),
            Map.entry("--enable-url-protocols", "EnableURLProtocols"),
            Map.entry("--enable-http", "EnableURLProtocols=http"),
            Map.entry("--enable-https", "EnableURLProtocols=https"),
            Map.entry("--enable-monitoring", "EnableMonitoringFeatures"),
            Map.entry("--enable-native-access", "EnableNativeAccess"),
            Map.entry("--enable-all-security-services", "+EnableAllSecurityServices"),
            Map.entry("--add-exports", "AddExports"),
            Map.entry("--add-opens", "AddOpens"),
            Map.entry("--add-reads", "AddReads"),
            Map.entry("--trace-class-initialization", "TraceClassInitialization"),
            Map.entry("--trace-object-instantiation", "TraceObjectInstantiation"),
            Map.entry("--report-unsupported-elements-at-runtime", "+ReportUnsupportedElementsAtRuntime"),
            Map.entry("--allow-incomplete-classpath", "+AllowIncompleteClasspath"),
            Map.entry("--install-exit-handlers", "+InstallExitHandlers"),
            Map.entry("--strict-image-heap", "+StrictImageHeap"),
            Map.entry("--exact-reachability-metadata", "ThrowMissingRegistrationErrors"),
            Map.entry("--exact-reachability-metadata-path", "ThrowMissingRegistrationErrorsPaths"),
            Map.entry("--future-defaults", "FutureDefaults"),
            Map.entry("--static", "+StaticExecutable"),
            Map.entry("--static-nolibc", "+StaticExecutableWithDynamicLibC"),
            Map.entry("--shared", "+SharedLibrary"),
            Map.entry("--libc", "UseLibC"),
            Map.entry("--native-compiler-path", "CCompilerPath"),
            Map.entry("--native-compiler-options", "CCompilerOption"),
            Map.entry("--parallelism", "NumberOfThreads"),
            Map.entry("--silent", "+BuildOutputSilent"),
            Map.entry("--color", "Color"),
            Map.entry("--target", "TargetPlatform"),
            Map.entry("--enable-preview", "+EnablePreview"),
            Map.entry("-march", "MicroArchitecture"));

    /** Driver options that change nothing the builder checks. */
    static final Set<String> IGNORED = Set.of("--verbose", "--no-server", "--diagnostics-mode");

    /** MetaInfFileType of the driver: file name under META-INF/native-image -> builder option. */
    static final Map<String, String> META_INF_FILES = Map.of(
            "reachability-metadata.json", "ReachabilityMetadataResources",
            "jni-config.json", "JNIConfigurationResources",
            "reflect-config.json", "ReflectionConfigurationResources",
            "resource-config.json", "ResourceConfigurationResources",
            "proxy-config.json", "DynamicProxyConfigurationResources",
            "serialization-config.json", "SerializationConfigurationResources",
            "serialization-deny-config.json", "SerializationDenyConfigurationResources",
            "predefined-classes-config.json", "PredefinedClassesConfigurationResources");

}
