package org.acme.docs.exactlyonce;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The application's writes, in plain JDBC through the datasource: inside a JTA transaction (the inbox's, or a
 * {@code @Transactional} method's) the connection joins it. Hibernate ORM and Panache writes join it the same way.
 */
@ApplicationScoped
public class ShopDatabase {

    @Inject
    DataSource dataSource;

    public void insertOrder(Order order) {
        update("INSERT INTO orders (id, item, quantity) VALUES (?, ?, ?)", order.id(), order.item(), order.quantity());
    }

    public void insertRefund(Refund refund) {
        update("INSERT INTO refunds (id, order_id, amount_cents) VALUES (?, ?, ?)", refund.id(), refund.orderId(),
                refund.amountCents());
    }

    private void update(String sql, Object... values) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                statement.setObject(i + 1, values[i]);
            }
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot run " + sql, e);
        }
    }
}
