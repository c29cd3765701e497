/*
 * A stand-in for GraalVM's native-image driver (not published on Maven Central) in front of its builder (which is):
 * reads what Quarkus writes with -Dquarkus.native.sources-only=true (native-image.args and the runner jar), maps the
 * driver options onto the builder's -H: options the way the driver does (com.oracle.svm.driver: DefaultOptionHandler,
 * APIOptionHandler, MetaInfFileType), adds what the jars on the image class path say in META-INF/native-image
 * (native-image.properties' Args and JavaArgs, the *-config.json and reachability-metadata.json files, less those that
 * --exclude-config names), and runs com.oracle.svm.hosted.NativeImageGeneratorRunner on the JDK running this file.
 * Any driver option it does not know (DriverOptions.java lists those it does) fails the run, naming it, instead of
 * being dropped.
 *
 * Run by .ci/native-check; by hand:
 *   $JDK25/bin/java .ci/native/NativeCheck.java --sources DIR --out DIR --builder-cp FILE --clibraries DIR \
 *       --java-home DIR --svm-version V [--stop analysis|compile] [--xmx 8g] [--extra-cp JAR] [--extra-arg ARG]...
 *       [--dry-run]
 */
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import java.util.stream.Stream;

public class NativeCheck {

    /** The builder's main class, in its module. */
    static final String GENERATOR = "org.graalvm.nativeimage.builder/com.oracle.svm.hosted.NativeImageGeneratorRunner";

    record Exclusion(Pattern jar, Pattern resource) {
    }

    final List<String> builderArgs = new ArrayList<>();
    final List<String> javaArgs = new ArrayList<>();
    final List<Exclusion> exclusions = new ArrayList<>();
    final LinkedHashSet<Path> imageClasspath = new LinkedHashSet<>();
    String imageName;
    String mainClass;

    public static void main(String[] argv) throws Exception {
        Map<String, List<String>> opts = parse(argv);
        NativeCheck check = new NativeCheck();
        Path sources = Path.of(one(opts, "--sources")).toAbsolutePath();
        Path out = Path.of(one(opts, "--out")).toAbsolutePath();
        Path argsFile = sources.resolve("native-image.args");
        if (!Files.isRegularFile(argsFile)) {
            fail(argsFile + " is missing: generate the native sources first (-Pnative -Dquarkus.native.sources-only=true)");
        }
        String stop = opts.getOrDefault("--stop", List.of("analysis")).get(0);
        // Quarkus writes the arguments on one line, separated by spaces, for `native-image $(cat native-image.args)`.
        List<String> quarkusArgs = new ArrayList<>(Arrays.asList(Files.readString(argsFile).trim().split("\\s+")));
        quarkusArgs.addAll(opts.getOrDefault("--extra-arg", List.of()));
        check.process(new ArrayDeque<>(quarkusArgs), sources, "native-image.args", null);
        for (String extra : opts.getOrDefault("--extra-cp", List.of())) {
            check.imageClasspath.add(Path.of(extra).toAbsolutePath());
        }
        if (check.mainClass == null) {
            fail("native-image.args has no -jar <runner jar> (or its manifest no Main-Class): nothing to build");
        }
        // What the jars on the image class path ask for, as the driver reads it from their META-INF/native-image.
        for (Path entry : check.imageClasspath) {
            check.metaInf(entry);
        }
        List<String> command = check.command(opts, out, stop);
        Files.createDirectories(out);
        Path jvmArgsFile = out.resolve("builder-jvm.args");
        Path builderArgsFile = out.resolve("builder.args");
        Files.write(jvmArgsFile, command.subList(1, command.indexOf("--module")).stream().map(NativeCheck::quote).toList());
        Files.write(builderArgsFile, command.subList(command.indexOf("--module") + 2, command.size()));
        System.out.println("native-check: builder " + one(opts, "--svm-version") + ", image " + check.imageName + " (main "
                + check.mainClass + ", " + check.imageClasspath.size() + " class path entries), stop after " + stop);
        System.out.println("native-check: JVM options in " + jvmArgsFile + ", builder options in " + builderArgsFile);
        if (opts.containsKey("--dry-run")) {
            return;
        }
        // The JVM options go through an @file (the exports of every JDK package make a long command line).
        List<String> launch = new ArrayList<>(List.of(command.get(0), "@" + jvmArgsFile));
        launch.addAll(command.subList(command.indexOf("--module"), command.size()));
        // In the output directory, as the driver runs it in its own (relative -H: paths, like Quarkus's
        // BuildOutputJSONFile, land there).
        System.exit(new ProcessBuilder(launch).directory(out.toFile()).inheritIO().start().waitFor());
    }

    /**
     * The driver's option handling, for the command line (optionOrigin null) and for the Args of a jar's
     * native-image.properties (optionOrigin its URI, which the builder's options carry, as the driver gives them).
     */
    void process(Deque<String> args, Path base, String origin, String optionOrigin) throws IOException {
        while (!args.isEmpty()) {
            String arg = args.poll();
            if (arg.isEmpty()) {
                continue;
            }
            if (arg.startsWith("-H:")) {
                hosted(arg, optionOrigin);
            } else if (arg.startsWith("-R:")) {
                builderArgs.add(arg);
            } else if (arg.startsWith("-J")) {
                javaArgs.add(arg.substring(2));
            } else if (arg.startsWith("-D")) {
                javaArgs.add(arg);
            } else if (arg.equals("--exclude-config")) {
                String jar = args.poll();
                String resource = args.poll();
                if (jar == null || resource == null) {
                    fail("--exclude-config needs a jar pattern and a resource pattern (" + origin + ")");
                }
                exclusions.add(new Exclusion(Pattern.compile(jar), Pattern.compile(resource)));
            } else if (arg.equals("--add-modules")) {
                javaArgs.add("--add-modules=" + args.poll());
            } else if (arg.startsWith("--add-modules=")) {
                javaArgs.add(arg);
            } else if (arg.equals("-jar")) {
                jar(base.resolve(args.poll()));
            } else if (arg.equals("-cp") || arg.equals("-classpath") || arg.equals("--class-path")) {
                for (String entry : args.poll().split(":")) {
                    imageClasspath.add(base.resolve(entry).normalize());
                }
            } else if (arg.equals("-o")) {
                imageName = args.poll();
            } else if (arg.startsWith("-O")) {
                hosted("-H:Optimize=" + arg.substring(2), optionOrigin);
            } else if (arg.equals("-g")) {
                hosted("-H:GenerateDebugInfo=2", optionOrigin);
            } else if (DriverOptions.IGNORED.contains(arg)) {
                continue;
            } else if (arg.startsWith("-")) {
                api(arg, origin, optionOrigin);
            } else if (imageName == null) {
                imageName = arg; // native-image [options] <image name> -jar <jar>, as Quarkus writes it
            } else {
                fail("unexpected argument '" + arg + "' in " + origin);
            }
        }
    }

    void api(String arg, String origin, String optionOrigin) {
        int eq = arg.indexOf('=');
        String name = eq < 0 ? arg : arg.substring(0, eq);
        String value = eq < 0 ? null : arg.substring(eq + 1);
        String target = DriverOptions.API_OPTIONS.get(name);
        if (target == null) {
            fail("the driver option " + arg + " (" + origin + ") has no mapping to a builder option: add it to"
                    + " API_OPTIONS in .ci/native/DriverOptions.java (the @APIOption annotations of svm.jar say which)");
        }
        if (target.startsWith("+") || target.startsWith("-") || target.contains("=")) {
            hosted("-H:" + target, optionOrigin); // a boolean or a fixed value
        } else if (target.contains("|")) {
            String option = target.substring(0, target.indexOf('|'));
            String suffix = target.substring(target.indexOf('|') + 1);
            String[] entries = (value == null ? "" : value).split(",");
            StringBuilder mapped = new StringBuilder();
            for (String entry : entries.length == 0 ? new String[] { "" } : entries) {
                mapped.append(mapped.isEmpty() ? "" : ",").append(entry).append(suffix);
            }
            hosted("-H:" + option + "=" + mapped, optionOrigin);
        } else {
            hosted("-H:" + target + "=" + (value == null ? "" : value), optionOrigin);
        }
    }

    /** A builder option, with the origin the driver gives it (its injectHostedOptionOrigin): -H:Name@origin=value. */
    void hosted(String option, String optionOrigin) {
        if (optionOrigin == null) {
            builderArgs.add(option);
            return;
        }
        int eq = option.indexOf('=');
        if (option.startsWith("-H:+") || option.startsWith("-H:-")) {
            builderArgs.add(option + "@" + optionOrigin);
        } else if (eq < 0) {
            fail("the builder option " + option + " from " + optionOrigin + " has no value");
        } else {
            builderArgs.add(option.substring(0, eq) + "@" + optionOrigin + option.substring(eq));
        }
    }

    void jar(Path jar) throws IOException {
        if (!Files.isRegularFile(jar)) {
            fail("the runner jar " + jar + " is missing");
        }
        imageClasspath.add(jar);
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            if (manifest == null || manifest.getMainAttributes().getValue("Main-Class") == null) {
                fail(jar + " has no Main-Class in its manifest");
            }
            mainClass = manifest.getMainAttributes().getValue("Main-Class");
            // The driver's handleModuleAttributes and handleEnableNativeAccessAttribute.
            for (String[] attribute : new String[][] { { "Add-Opens", "AddOpens" }, { "Add-Exports", "AddExports" } }) {
                String value = manifest.getMainAttributes().getValue(attribute[0]);
                if (value != null) {
                    for (String pkg : value.trim().split(" +")) {
                        builderArgs.add("-H:" + attribute[1] + "=" + pkg + "=ALL-UNNAMED");
                    }
                }
            }
            if (manifest.getMainAttributes().getValue("Enable-Native-Access") != null) {
                javaArgs.add("--enable-native-access=ALL-UNNAMED");
            }
            String classPath = manifest.getMainAttributes().getValue("Class-Path");
            if (classPath != null) {
                for (String entry : classPath.trim().split(" +")) {
                    Path path = jar.getParent().resolve(entry).normalize();
                    if (!Files.exists(path)) {
                        fail(jar + " names " + entry + " on its Class-Path, and it is not there");
                    }
                    imageClasspath.add(path);
                }
            }
        }
        if (imageName == null) {
            imageName = jar.getFileName().toString().replaceAll("\\.jar$", "");
        }
    }

    void metaInf(Path entry) throws IOException {
        if (!Files.isRegularFile(entry)) {
            return;
        }
        try (FileSystem zip = FileSystems.newFileSystem(entry)) {
            Path root = zip.getPath("/");
            Path metaInf = zip.getPath("/META-INF/native-image");
            if (!Files.isDirectory(metaInf)) {
                return;
            }
            List<Path> files;
            try (Stream<Path> walk = Files.walk(metaInf)) {
                files = walk.filter(Files::isRegularFile).sorted().toList();
            }
            for (Path file : files) {
                String fileName = file.getFileName().toString();
                boolean known = fileName.equals("native-image.properties") || DriverOptions.META_INF_FILES.containsKey(fileName);
                if (!known) {
                    continue;
                }
                boolean excluded = exclusions.stream().anyMatch(e -> e.jar().matcher(entry.toString()).find()
                        && e.resource().matcher(file.toString()).find());
                if (excluded) {
                    continue;
                }
                String origin = entry.getFileName() + "!" + file;
                if (fileName.equals("native-image.properties")) {
                    Properties properties = new Properties();
                    try (InputStream in = Files.newInputStream(file)) {
                        properties.load(in);
                    }
                    for (String key : properties.stringPropertyNames()) {
                        if (!key.equals("Args") && !key.equals("JavaArgs")) {
                            fail(origin + " sets " + key + ", which .ci/native/NativeCheck.java does not handle");
                        }
                    }
                    String javaArgsValue = properties.getProperty("JavaArgs", "").trim();
                    if (!javaArgsValue.isEmpty()) {
                        javaArgs.addAll(Arrays.asList(javaArgsValue.split("\\s+")));
                    }
                    String argsValue = properties.getProperty("Args", "").trim();
                    if (argsValue.contains("${")) {
                        fail(origin + " uses a ${...} substitution, which .ci/native/NativeCheck.java does not handle");
                    }
                    if (!argsValue.isEmpty()) {
                        process(new ArrayDeque<>(Arrays.asList(argsValue.split("\\s+"))), entry.getParent(), origin,
                                file.toUri().toString());
                    }
                } else {
                    hosted("-H:" + DriverOptions.META_INF_FILES.get(fileName) + "=" + root.relativize(file),
                            file.toUri().toString());
                }
            }
        }
    }

    List<String> command(Map<String, List<String>> opts, Path out, String stop) throws IOException {
        List<Path> builderJars = new ArrayList<>();
        for (String line : Files.readString(Path.of(one(opts, "--builder-cp"))).trim().split(":")) {
            builderJars.add(Path.of(line));
        }
        List<Path> upgrade = new ArrayList<>();
        List<Path> modulePath = new ArrayList<>();
        Set<String> builderModules = new TreeSet<>();
        for (Path jar : builderJars) {
            Set<ModuleReference> found = ModuleFinder.of(jar).findAll();
            if (found.isEmpty()) {
                fail(jar + " is not a module: the builder's artifacts changed");
            }
            String name = found.iterator().next().descriptor().name();
            builderModules.add(name);
            (name.equals("jdk.graal.compiler") ? upgrade : modulePath).add(jar);
        }
        if (upgrade.isEmpty()) {
            fail("no jdk.graal.compiler among the builder's jars (" + one(opts, "--builder-cp") + ")");
        }
        String targets = String.join(",", builderModules);

        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI", "-XX:-UseJVMCICompiler",
                "-Xss10m", "-Xms1g", "-Xmx" + opts.getOrDefault("--xmx", List.of("8g")).get(0), "-Xshare:off",
                "-XX:+UseParallelGC",
                "-Djava.awt.headless=true",
                "-Djava.home=" + Path.of(one(opts, "--java-home")).toAbsolutePath(),
                "-Dorg.graalvm.version=" + one(opts, "--svm-version"),
                "-Dorg.graalvm.config=CE",
                // What GraalVM's own java says; Quarkus's GraalVM.Version reads it to know which builder it runs in.
                "-Dorg.graalvm.vendorversion=GraalVM CE " + one(opts, "--svm-version"),
                "-Dcom.oracle.graalvm.isaot=true",
                "-Dorg.graalvm.nativeimage.imagecode=buildtime",
                "-Djava.system.class.loader=com.oracle.svm.hosted.NativeImageSystemClassLoader",
                // The driver's completeImageBuild: lambdas and method handles as the builder expects them.
                "-Djdk.internal.lambda.disableEagerInitialization=true",
                "-Djdk.internal.lambda.eagerlyInitialize=false",
                "-Djava.lang.invoke.InnerClassLambdaMetafactory.initializeLambdas=false",
                "-Djava.lang.invoke.MethodHandle.DONT_INLINE_THRESHOLD=-1",
                "-Djava.lang.invoke.MethodHandle.PROFILE_GWT=false",
                "--add-modules=ALL-SYSTEM", "--enable-native-access=" + targets));
        // The driver opens the JDK to the builder: every package of every system module.
        for (ModuleReference module : ModuleFinder.ofSystem().findAll()) {
            ModuleDescriptor descriptor = module.descriptor();
            for (String pkg : new TreeSet<>(descriptor.packages())) {
                command.add("--add-exports=" + descriptor.name() + "/" + pkg + "=" + targets);
                command.add("--add-opens=" + descriptor.name() + "/" + pkg + "=" + targets);
            }
        }
        command.addAll(javaArgs);
        command.add("--upgrade-module-path=" + join(upgrade));
        command.add("--module-path=" + join(modulePath));
        command.add("--module");
        command.add(GENERATOR);
        command.add("-imagecp");
        command.add(join(new ArrayList<>(imageClasspath)));
        command.add("-H:Path=" + out);
        command.add("-H:Name=" + imageName);
        command.add("-H:Class=" + mainClass);
        command.add("-H:CLibraryPath=" + Path.of(one(opts, "--clibraries")).toAbsolutePath());
        command.add("-H:ImageBuildID=" + UUID.randomUUID());
        command.addAll(new ArrayList<>(new LinkedHashSet<>(builderArgs)));
        command.add("-H:+UnlockExperimentalVMOptions");
        switch (stop) {
            // Not ExitAfterAnalysis: the builder skips its check for the JDK's static libraries (libjava.a, ...; needed
            // only to link) with ReturnAfterAnalysis and ExitAfterRelocatableImageWrite, not with ExitAfterAnalysis.
            case "analysis" -> command.add("-H:+ReturnAfterAnalysis");
            case "compile" -> command.add("-H:+ExitAfterRelocatableImageWrite");
            default -> fail("--stop takes analysis or compile, not " + stop);
        }
        command.add("-H:-UnlockExperimentalVMOptions");
        return command;
    }

    static String join(List<Path> paths) {
        return String.join(":", paths.stream().map(Path::toString).toList());
    }

    /** A java launcher @file line: quoted, so a space or a backslash stays what it is. */
    static String quote(String arg) {
        return "\"" + arg.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    static Map<String, List<String>> parse(String[] argv) {
        Map<String, List<String>> opts = new java.util.HashMap<>();
        for (int i = 0; i < argv.length; i++) {
            if (argv[i].equals("--dry-run")) {
                opts.put("--dry-run", List.of());
            } else if (i + 1 < argv.length) {
                opts.computeIfAbsent(argv[i], k -> new ArrayList<>()).add(argv[++i]);
            } else {
                fail("option " + argv[i] + " needs a value");
            }
        }
        return opts;
    }

    static String one(Map<String, List<String>> opts, String name) {
        List<String> values = opts.get(name);
        if (values == null) {
            fail("missing " + name);
        }
        return values.get(values.size() - 1);
    }

    static void fail(String message) {
        System.err.println("native-check: " + message);
        System.exit(2);
    }
}
