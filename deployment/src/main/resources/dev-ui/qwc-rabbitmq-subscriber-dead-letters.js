import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import '@vaadin/grid';
import '@vaadin/button';
import '@vaadin/integer-field';

/**
 * Each planned dead-letter queue: its depth on the broker in use, its first messages (a peek: nothing is taken) and a
 * button that replays them to the queues they came from. A replay moves each message only once RabbitMQ confirmed its
 * copy, so the page may be closed midway.
 */
export class QwcRabbitmqSubscriberDeadLetters extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        :host { display: flex; flex-direction: column; gap: 1em; padding: 1em; }
        h3 { margin: 0; display: flex; gap: 1em; align-items: baseline; }
        .queue { display: flex; flex-direction: column; gap: 0.5em; }
        code { font-size: small; }
    `;

    static properties = {
        _queues: { state: true },
        _letters: { state: true },
        _message: { state: true },
    };

    constructor() {
        super();
        this._letters = {};
    }

    connectedCallback() {
        super.connectedCallback();
        this._refresh();
    }

    /** The queues' depths, then each queue's first messages. */
    _refresh() {
        this.jsonRpc.deadLetterQueues().then(response => {
            this._queues = response.result;
            for (const queue of this._queues.filter(queue => queue.exists)) {
                this.jsonRpc.peek({ queue: queue.name, max: 10 })
                    .then(answer => this._letters = { ...this._letters, [queue.name]: answer.result });
            }
        });
    }

    render() {
        if (!this._queues) {
            return html`Loading...`;
        }
        if (this._queues.length === 0) {
            return html`No subscription names a dead-letter queue.`;
        }
        return html`
            <div id="message">${this._message || ''}</div>
            ${this._queues.map(queue => this._queue(queue))}
        `;
    }

    _queue(queue) {
        if (!queue.exists) {
            return html`<div class="queue" data-queue="${queue.name}"><h3><code>${queue.name}</code></h3>
                <div>Not on the broker: ${queue.error}</div></div>`;
        }
        return html`<div class="queue" data-queue="${queue.name}">
            <h3><code>${queue.name}</code> <span>depth <b class="depth">${queue.depth}</b></span>
                <vaadin-integer-field class="max" label="At most" value="${Math.max(queue.depth, 1)}" min="1"
                    theme="small"></vaadin-integer-field>
                <vaadin-button class="replay" theme="small primary" ?disabled="${queue.depth === 0}"
                    @click="${event => this._replay(queue.name, event)}">Replay</vaadin-button>
                <vaadin-button class="refresh" theme="small" @click="${() => this._refresh()}">Refresh</vaadin-button>
            </h3>
            <vaadin-grid .items="${this._letters[queue.name] || []}" all-rows-visible theme="row-stripes compact">
                <vaadin-grid-column path="messageId" header="Message id" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="sourceQueue" header="From" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="reason" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="attempts" header="Deliveries" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="exceptionType" header="Exception" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="exceptionMessage" header="Message" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="bodyPreview" header="Body" auto-width></vaadin-grid-column>
            </vaadin-grid>
        </div>`;
    }

    _replay(queue, event) {
        const field = event.target.closest('h3').querySelector('vaadin-integer-field');
        const max = Number(field.value) || 1;
        this.jsonRpc.replay({ queue: queue, max: max })
            .then(response => {
                this._message = 'Replayed ' + response.result.replayed + ' from ' + queue;
                this._refresh();
            })
            .catch(error => {
                this._message = 'Could not replay ' + queue + ': ' + (error?.error?.message || error);
                this._refresh();
            });
    }
}
customElements.define('qwc-rabbitmq-subscriber-dead-letters', QwcRabbitmqSubscriberDeadLetters);
