import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import '@vaadin/button';
import '@vaadin/text-field';
import '@vaadin/text-area';

/**
 * The broker in use, and each named broker with whether its connection is up; for the in-process broker its paused clock, a button to advance it and a publish form; where a
 * subscription has an inbox, the inbox's and the outbox's figures.
 */
export class QwcRabbitmqSubscriberBroker extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        :host { display: flex; flex-direction: column; gap: 1em; padding: 1em; }
        .row { display: flex; gap: 1em; align-items: baseline; }
    `;

    static properties = {
        _broker: { state: true },
        _message: { state: true },
    };

    connectedCallback() {
        super.connectedCallback();
        this.jsonRpc.broker().then(response => this._broker = response.result);
    }

    render() {
        if (!this._broker) {
            return html`Loading...`;
        }
        return html`
            <div>Broker: <b>${this._broker.broker}</b></div>
            ${(this._broker.brokers || []).map(named => html`<div class="named" data-broker="${named.name}">Broker
                <code>${named.name}</code>: <b>${named.broker}</b>${named.down ? html`, <b>down</b>: ${named.down}` : ''}</div>`)}
            ${this._broker.inProcess ? html`
                <div class="row">Clock: ${new Date(this._broker.clockMillis).toISOString()}
                    (${this._broker.clockPaused ? 'paused' : 'wall'})</div>
                ${this._broker.clockPaused ? html`<div class="row">
                    <vaadin-text-field id="seconds" label="Seconds" value="30"></vaadin-text-field>
                    <vaadin-button @click="${this._advance}">Advance the clock</vaadin-button></div>` : ''}` : ''}
            <div class="row">
                <vaadin-text-field id="queue" label="Queue"></vaadin-text-field>
                <vaadin-text-area id="body" label="Body"></vaadin-text-area>
                <vaadin-button @click="${this._publish}">Publish</vaadin-button>
            </div>
            <div>${this._message || ''}</div>
            ${this._broker.inbox ? this._tables() : ''}
        `;
    }

    _tables() {
        const inbox = this._broker.inbox;
        const outbox = this._broker.outbox;
        return html`
            <div id="inbox">Inbox: ${inbox.problem ? inbox.problem : html`<b>${inbox.rows}</b> row(s)${inbox.oldestMillis
                ? ', the oldest handled ' + new Date(inbox.oldestMillis).toISOString() : ''}`}</div>
            <div id="outbox">Outbox: <b>${outbox.waiting}</b> row(s) waiting${outbox.oldestAgeMillis != null
                ? ', the oldest for ' + Math.round(outbox.oldestAgeMillis / 1000) + ' s' : ''}${outbox.relaying
                ? `; this instance's relay published ${outbox.relayed} group(s)` : ' (no relay on this instance)'}${outbox.lastFailure ? html`; the relay: ${outbox.lastFailure}` : ''}
                ${outbox.stuck ? html`<div><b>Readiness is DOWN</b>: ${outbox.stuck}</div>` : ''}</div>
        `;
    }

    _advance() {
        const seconds = Number(this.shadowRoot.getElementById('seconds').value);
        this.jsonRpc.advance({ millis: Math.round(seconds * 1000) }).then(response => this._broker = response.result);
    }

    _publish() {
        const queue = this.shadowRoot.getElementById('queue').value;
        const body = this.shadowRoot.getElementById('body').value;
        this.jsonRpc.publish({ queue: queue, body: body })
            .then(() => this._message = 'Published to ' + queue)
            .catch(error => this._message = 'Could not publish: ' + (error?.error?.message || error));
    }
}
customElements.define('qwc-rabbitmq-subscriber-broker', QwcRabbitmqSubscriberBroker);
