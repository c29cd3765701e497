package io.quarkiverse.rabbitmq.subscriber.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The PostgreSQL a database test talks to, as {@link WireBroker} is the broker: {@code 127.0.0.1:5432}, database
 * {@code test}, user {@code postgres} ({@code -Dpostgres.test.host}, {@code .port}, {@code .database} point it
 * elsewhere). Registered on a class (before its {@code QuarkusUnitTest}), it
 * <ul>
 * <li>skips the class, saying why, when no PostgreSQL answers, unless {@code -Dpostgres.test.required=true} (as
 * {@code .ci/run} sets), where it fails instead;</li>
 * <li>gives the class a schema of its own, made empty before the application starts and dropped after it stopped,
 * and points the application's default datasource at it ({@code quarkus.datasource.*} as system properties, so Quarkus
 * never looks for a container);</li>
 * <li>requires the class to be tagged {@code @Tag("database")} ({@link #TAG}), by which CI selects them.</li>
 * </ul>
 */
public final class WireDatabase implements ExecutionCondition, BeforeAllCallback, AfterAllCallback {

    public static final String TAG = "database";
    static final boolean REQUIRED = Boolean.getBoolean("postgres.test.required");
    static final String HOST = System.getProperty("postgres.test.host", "127.0.0.1");
    static final int PORT = Integer.getInteger("postgres.test.port", 5432);
    static final String DATABASE = System.getProperty("postgres.test.database", "test");
    static final String USER = "postgres";
    /** Ignored by this machine's trust authentication; {@code .ci/run} sets it for a fresh Debian's. */
    static final String PASSWORD = "postgres";

    private static volatile String unreachable;
    private static volatile boolean probed;

    private final String schema;

    private WireDatabase(String schema) {
        this.schema = schema;
    }

    /** A schema named for the class: lower case, letters, digits and underscores. */
    public static WireDatabase schema(String name) {
        String cleaned = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        return new WireDatabase(cleaned.length() > 60 ? cleaned.substring(0, 60) : cleaned);
    }

    public String schema() {
        return schema;
    }

    /** The JDBC URL of the class's schema. */
    public String jdbcUrl() {
        return "jdbc:postgresql://" + HOST + ":" + PORT + "/" + DATABASE + "?currentSchema=" + schema;
    }

    /** The datasource configuration the application gets. */
    public Map<String, String> datasource() {
        return Map.of("quarkus.datasource.db-kind", "postgresql",
                "quarkus.datasource.jdbc.url", jdbcUrl(),
                "quarkus.datasource.username", USER,
                "quarkus.datasource.password", PASSWORD,
                "quarkus.datasource.devservices.enabled", "false");
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (context.getTestMethod().isPresent()) {
            return ConditionEvaluationResult.enabled("decided for the class");
        }
        String why = probe();
        if (why == null || REQUIRED) {
            return ConditionEvaluationResult.enabled(why == null ? "PostgreSQL answers" : "required");
        }
        return ConditionEvaluationResult.disabled(why + " (start PostgreSQL there, or point -Dpostgres.test.host and "
                + ".port at one; -Dpostgres.test.required=true makes this a failure)");
    }

    @Override
    public void beforeAll(ExtensionContext context) throws SQLException {
        String why = probe();
        if (why != null) {
            throw new IllegalStateException(why + " and -Dpostgres.test.required is set");
        }
        if (!context.getTags().contains(TAG)) {
            throw new IllegalStateException(context.getRequiredTestClass().getName() + " registers WireDatabase but is "
                    + "not tagged @Tag(\"" + TAG + "\"): tag it, so that CI selects it");
        }
        update("DROP SCHEMA IF EXISTS " + schema + " CASCADE", "CREATE SCHEMA " + schema);
        datasource().forEach(System::setProperty);
    }

    @Override
    public void afterAll(ExtensionContext context) throws SQLException {
        datasource().keySet().forEach(System::clearProperty);
        if (probe() == null) {
            update("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }

    /** Runs statements in the class's schema, each committed on its own. */
    public void update(String... statements) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /** The rows a query returns, each a list of its columns' values. */
    public List<List<Object>> query(String sql) throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            List<List<Object>> result = new ArrayList<>();
            int columns = rows.getMetaData().getColumnCount();
            while (rows.next()) {
                List<Object> row = new ArrayList<>(columns);
                for (int column = 1; column <= columns; column++) {
                    row.add(rows.getObject(column));
                }
                result.add(row);
            }
            return result;
        }
    }

    /** The one number a query such as {@code SELECT count(*) ...} returns. */
    public long count(String sql) throws SQLException {
        return ((Number) query(sql).get(0).get(0)).longValue();
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), USER, PASSWORD);
    }

    /** Null when PostgreSQL answers, else why not; asked once per JVM. */
    private static String probe() {
        if (!probed) {
            DriverManager.setLoginTimeout(2);
            try (Connection connection = DriverManager.getConnection(
                    "jdbc:postgresql://" + HOST + ":" + PORT + "/" + DATABASE, USER, PASSWORD)) {
                unreachable = null;
            } catch (SQLException e) {
                unreachable = "No PostgreSQL at " + HOST + ":" + PORT + "/" + DATABASE + ": " + e.getMessage();
            }
            probed = true;
        }
        return unreachable;
    }
}
