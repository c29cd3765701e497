package io.quarkiverse.rabbitmq.subscriber.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The guide's pages as a build check: every Java, properties and XML sample is included from a source under
 * {@code modules/ROOT/examples} (which this module compiles and runs as its tests), each include names a file and
 * tags that exist, and no page reads as a lab notebook (dates, issue numbers, CI internals).
 */
class GuidePagesTest {

    static final Path ROOT = Path.of("modules", "ROOT");
    static final Pattern SOURCE_BLOCK = Pattern.compile("^\\[source,\\s*(java|properties|xml)[^\\]]*\\]\\s*$");
    static final Pattern INCLUDE = Pattern.compile("include::example\\$([^\\[]+)\\[([^\\]]*)\\]");
    static final Pattern NOTEBOOK = Pattern.compile(
            "\\b20\\d\\d-\\d\\d-\\d\\d\\b|\\b[Ii]ssue \\d+|\\.ci/|\\brounds\\b|\\bthis stop\\b");

    @Test
    void everySampleIsIncludedFromASourceThatExists() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path page : pages()) {
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                if (!SOURCE_BLOCK.matcher(lines.get(i)).matches()) {
                    continue;
                }
                // The block: its delimiter, then only includes until the closing delimiter.
                int at = i + 1;
                String delimiter = at < lines.size() ? lines.get(at).trim() : "";
                boolean included = false;
                for (at = at + 1; at < lines.size() && !lines.get(at).trim().equals(delimiter); at++) {
                    String line = lines.get(at).trim();
                    if (line.isEmpty()) {
                        continue;
                    }
                    if (!line.startsWith("include::")) {
                        problems.add(page + ":" + (at + 1) + ": pasted by hand: " + line);
                        break;
                    }
                    included = true;
                }
                if (!included) {
                    problems.add(page + ":" + (i + 1) + ": a sample block without an include");
                }
            }
            Matcher include = INCLUDE.matcher(String.join("\n", lines));
            while (include.find()) {
                Path source = ROOT.resolve("examples").resolve(include.group(1));
                if (!Files.isRegularFile(source)) {
                    problems.add(page + ": includes " + source + ", which does not exist");
                    continue;
                }
                String text = Files.readString(source);
                for (String tag : tags(include.group(2))) {
                    if (!text.contains("tag::" + tag + "[]") || !text.contains("end::" + tag + "[]")) {
                        problems.add(page + ": includes tag '" + tag + "' of " + source + ", which has no such tag");
                    }
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void noPageReadsAsALabNotebook() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path page : pages()) {
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                Matcher matcher = NOTEBOOK.matcher(lines.get(i));
                if (matcher.find()) {
                    problems.add(page + ":" + (i + 1) + ": '" + matcher.group() + "': " + lines.get(i).trim());
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    static List<Path> pages() throws IOException {
        try (Stream<Path> files = Files.list(ROOT.resolve("pages"))) {
            return files.filter(file -> file.toString().endsWith(".adoc")).sorted().toList();
        }
    }

    static List<String> tags(String attributes) {
        List<String> tags = new ArrayList<>();
        for (String attribute : attributes.split(",")) {
            String[] pair = attribute.trim().split("=", 2);
            if (pair.length == 2 && (pair[0].equals("tag") || pair[0].equals("tags"))) {
                for (String tag : pair[1].replace("\"", "").split(";")) {
                    if (!tag.isBlank() && !tag.startsWith("!") && !tag.equals("**") && !tag.equals("*")) {
                        tags.add(tag.trim());
                    }
                }
            }
        }
        return tags;
    }
}
