import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import '@vaadin/grid';
import '@vaadin/button';
import { columnBodyRenderer } from '@vaadin/grid/lit.js';

/**
 * The subscriptions with their state and a pause or resume button each, the live outcome counters, the topology plan
 * and each planned queue's depth and consumers on the broker in use.
 */
export class QwcRabbitmqSubscriberSubscriptions extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        :host { display: flex; flex-direction: column; gap: 1em; padding: 1em; }
        h3 { margin: 0; }
        code { font-size: small; }
    `;

    static properties = {
        _subscriptions: { state: true },
        _topology: { state: true },
        _queues: { state: true },
        _outcomes: { state: true },
        _message: { state: true },
    };

    connectedCallback() {
        super.connectedCallback();
        this._refresh();
        // The outcome counters are live: read them every second while the page is open. Their columns are the
        // labels the service lists, so a new outcome needs no change here.
        this._timer = setInterval(() => this._refreshOutcomes(), 1000);
    }

    disconnectedCallback() {
        clearInterval(this._timer);
        super.disconnectedCallback();
    }

    _refreshOutcomes() {
        this.jsonRpc.outcomes().then(response => this._outcomes = response.result);
    }

    _refresh() {
        this.jsonRpc.subscriptions().then(response => this._subscriptions = response.result);
        this.jsonRpc.topology().then(response => this._topology = response.result);
        this.jsonRpc.queues().then(response => this._queues = response.result);
        this._refreshOutcomes();
    }

    render() {
        return html`
            <h3>Subscriptions</h3>
            <vaadin-grid id="subscriptions" .items="${this._subscriptions || []}" all-rows-visible theme="row-stripes">
                <vaadin-grid-column path="queue" auto-width></vaadin-grid-column>
                <vaadin-grid-column header="State" auto-width
                    ${columnBodyRenderer(subscription => this._stateCell(subscription), [])}></vaadin-grid-column>
                <vaadin-grid-column path="type" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="maxAttempts" header="Cap" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="deadLetter" header="Dead letter" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="delay" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="retryPublish" header="Publish" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="prefetch" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="concurrency" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="executionModel" header="Runs on" auto-width></vaadin-grid-column>
                <vaadin-grid-column header="Batch" auto-width
                    ${columnBodyRenderer(subscription => subscription.batchSize
                        ? html`<span class="batch">${subscription.batchSize} / ${subscription.batchMaxWait}</span>`
                        : '', [])}></vaadin-grid-column>
                <vaadin-grid-column path="heldCopies" header="Held copies" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="partition" header="Partition or stream" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="method" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="broker" auto-width></vaadin-grid-column>
            </vaadin-grid>
            <div id="message">${this._message || ''}</div>
            <h3>Outcomes (live; ${this._outcomes?.inFlight ?? 0} in flight)</h3>
            <vaadin-grid .items="${this._outcomes?.queues || []}" all-rows-visible theme="row-stripes">
                <vaadin-grid-column path="queue" auto-width></vaadin-grid-column>
                ${(this._outcomes?.labels || []).map(label => html`<vaadin-grid-column path="${label}"
                    header="${label}" auto-width></vaadin-grid-column>`)}
            </vaadin-grid>
            <h3>Queues <vaadin-button id="refresh-queues" theme="small" @click="${() => this._refresh()}">Refresh</vaadin-button></h3>
            <vaadin-grid .items="${this._queues || []}" all-rows-visible theme="row-stripes">
                <vaadin-grid-column path="name" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="role" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="exists" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="depth" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="consumers" auto-width></vaadin-grid-column>
            </vaadin-grid>
            <h3>Topology plan</h3>
            ${(this._topology?.queues || []).map(queue => html`<div><code>${queue.name}</code> ${queue.role}
                of <code>${queue.owner}</code> <code>${JSON.stringify(queue.arguments)}</code></div>`)}
            ${(this._topology?.exchanges || []).map(exchange => html`<div>exchange <code>${exchange.name}</code>
                (${exchange.type}${exchange.builtIn ? ", RabbitMQ's own: checked, not declared" : ''})</div>`)}
            ${(this._topology?.bindings || []).map(binding => html`<div>binding <code>${binding.queue}</code> to
                <code>${binding.exchange}</code> under <code>${binding.routingKey}</code>
                ${Object.keys(binding.arguments || {}).length ? html`matching <code>${JSON.stringify(binding.arguments)}</code>` : ''}</div>`)}
        `;
    }

    /** The state, and the button that changes it: pause while it consumes, resume while it is paused. */
    _stateCell(subscription) {
        const paused = subscription.state === 'PAUSED';
        return html`<span class="state">${subscription.state}</span>
            <vaadin-button theme="small" class="${paused ? 'resume' : 'pause'}" data-queue="${subscription.queue}"
                @click="${() => this._switch(subscription.queue, paused ? 'resume' : 'pause')}">
                ${paused ? 'Resume' : 'Pause'}</vaadin-button>`;
    }

    _switch(queue, action) {
        const call = action === 'pause' ? this.jsonRpc.pause({ queue: queue }) : this.jsonRpc.resume({ queue: queue });
        call.then(response => {
            this._message = queue + ': ' + response.result;
            // The queues too: their consumers change with the cancel or the consume that follows.
            this._refresh();
        }).catch(error => this._message = 'Could not ' + action + ' ' + queue + ': ' + (error?.error?.message || error));
    }
}
customElements.define('qwc-rabbitmq-subscriber-subscriptions', QwcRabbitmqSubscriberSubscriptions);
